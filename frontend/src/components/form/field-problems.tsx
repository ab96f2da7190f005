export interface FieldProblemsProps {
  /** The element id the field's aria-describedby names. */
  id: string;
  /** What the backend (or the form) refused about this field, one sentence each. */
  problems: string[];
}

/** FieldProblems lists, under a field, what is wrong with it. */
export function FieldProblems({ id, problems }: FieldProblemsProps) {
  if (problems.length === 0) return null;
  return (
    <ul id={id} className="field-problems">
      {problems.map((problem) => (
        <li key={problem}>{problem}</li>
      ))}
    </ul>
  );
}

/** describedBy joins the ids of a field's hint and problems, for aria-describedby. */
export const describedBy = (...ids: (string | false | undefined)[]) => ids.filter(Boolean).join(' ') || undefined;
