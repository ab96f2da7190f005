import { useCallback, useRef, useState } from 'react';

/**
 * useFieldProblems collects what a form's fields refuse as typed (NumberField's onProblem), so
 * that the form sends nothing while one does: reporter(key) is a stable callback per field.
 */
export function useFieldProblems() {
  const [problems, setProblems] = useState<Record<string, string>>({});
  const reporters = useRef(new Map<string, (problem: string | null) => void>());
  const reporter = useCallback((key: string) => {
    let report = reporters.current.get(key);
    if (!report) {
      report = (problem: string | null) =>
        setProblems((current) => {
          if ((current[key] ?? null) === problem) return current;
          const { [key]: _, ...others } = current;
          return problem === null ? others : { ...others, [key]: problem };
        });
      reporters.current.set(key, report);
    }
    return report;
  }, []);
  return { problems: Object.values(problems), reporter };
}
