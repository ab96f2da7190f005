import { useCallback, useState } from 'react';

/**
 * Which report the Studies page shows, in its address (&report=shipped, &report=full: every full
 * run together, or &report=<campaign id>), so that a reload or a shared link shows the same; null:
 * the page's default.
 */
export type ReportChoice = 'shipped' | 'full' | string;

const choicePattern = /^(shipped|full|c[0-9a-f]{1,32})$/;

const fromAddress = (): ReportChoice | null => {
  const choice = new URLSearchParams(window.location.search).get('report');
  return choice !== null && choicePattern.test(choice) ? choice : null;
};

export function useReportChoice(): [ReportChoice | null, (choice: ReportChoice) => void] {
  const [choice, setChoice] = useState(fromAddress);
  const choose = useCallback((next: ReportChoice) => {
    const query = new URLSearchParams(window.location.search);
    query.set('report', next);
    window.history.replaceState(null, '', `?${query.toString()}`);
    setChoice(next);
  }, []);
  return [choice, choose];
}

/** studyHref is the Studies page's address showing one study. */
export function studyHref(studyId: string): string {
  const query = new URLSearchParams(window.location.search);
  query.delete('report');
  query.set('study', studyId);
  return `?${query.toString()}`;
}

export const studyInAddress = () => new URLSearchParams(window.location.search).get('study');
