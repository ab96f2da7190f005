import { useCallback, useState } from 'react';
import { inAddress, paths, type ReportChoice, replaceAddress } from '../../../config/paths';

export type { ReportChoice };

/**
 * useReportChoice keeps which report the Studies page shows in its address (&report=shipped,
 * &report=full: every full run together, or &report=<campaign id>), so that a reload or a shared
 * link shows the same; null: the page's default.
 */
export function useReportChoice(): [ReportChoice | null, (choice: ReportChoice) => void] {
  const [choice, setChoice] = useState(() => inAddress.report());
  const choose = useCallback((next: ReportChoice) => {
    replaceAddress(paths.studies.report(inAddress.study(), next));
    setChoice(next);
  }, []);
  return [choice, choose];
}
