import { useEffect, useState } from 'react';
import { getStaticStudies } from '../api/client';
import type { Study } from '../api/types';

let staticReadmes: Promise<Record<string, string | null>> | undefined;

/**
 * useStudyReadme is the recipe's README.md (Markdown): in the static studies.json, which the build
 * writes beside index.html whether or not a backend serves the page (the API does not give it).
 * undefined while it loads, null when there is none.
 */
export function useStudyReadme(study: Study): string | null | undefined {
  const inHand = (study as Study & { readme?: string | null }).readme;
  const [fetched, setFetched] = useState<string | null>();
  useEffect(() => {
    if (inHand !== undefined) return;
    let current = true;
    staticReadmes ??= getStaticStudies().then(
      (list) => Object.fromEntries(list.data.map((one) => [one.id, (one as Study & { readme?: string | null }).readme ?? null])),
      () => ({}),
    );
    void staticReadmes.then((readmes) => current && setFetched(readmes[study.id] ?? null));
    return () => {
      current = false;
    };
  }, [study.id, inHand]);
  return inHand !== undefined ? inHand : fetched;
}
