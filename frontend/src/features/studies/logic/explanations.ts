import type { ReportCheck, ReportRow } from '../api/types';

/**
 * Why figures are out of their band, or a check fails: the recipe's one-sentence explanation
 * (backend/satlab/studies/spec.py, Explanation), which a report carries on each row and check it
 * explains, with the section of the study's README that says more.
 */
export interface Explanation {
  text: string;
  /** A heading of the study's README.md, as written. */
  section: string;
}

/** explanationOf reads a row's or check's explanation; reports made before recipes had them carry none. */
export function explanationOf(item: ReportRow | ReportCheck): Explanation | null {
  const explanation = (item as { explanation?: Partial<Explanation> | null }).explanation;
  return explanation?.text && explanation.section ? { text: explanation.text, section: explanation.section } : null;
}

/** readmeHeadingId is the id a heading of a study's README gets on the page, and that its links point to. */
export function readmeHeadingId(studyId: string, heading: string): string {
  const slug = heading
    .toLowerCase()
    .replaceAll('`', '')
    .replace(/[^\p{L}\p{N}\- ]/gu, '')
    .trim()
    .replaceAll(' ', '-');
  return `readme-${studyId}-${slug}`;
}

/** The README's own id: a link to it opens it at the top. */
export const readmeId = (studyId: string) => `readme-${studyId}`;
