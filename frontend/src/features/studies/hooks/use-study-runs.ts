import { useCallback, useEffect, useState } from 'react';
import { listStudyRuns } from '../api/client';
import type { StudyRun } from '../api/types';

/** useStudyRuns lists a study's runs (campaigns), newest first; refresh() asks again. */
export function useStudyRuns(studyId: string, enabled: boolean) {
  const [runs, setRuns] = useState<StudyRun[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    if (!enabled) return;
    let current = true;
    listStudyRuns(studyId).then(
      (list) => {
        if (!current) return;
        setRuns([...list.data].reverse());
        setFailure(null);
      },
      (error: Error) => current && setFailure(`The study runs did not load: ${error.message}`),
    );
    return () => {
      current = false;
    };
  }, [studyId, enabled, version]);
  const refresh = useCallback(() => setVersion((count) => count + 1), []);
  return { runs, failure, refresh };
}
