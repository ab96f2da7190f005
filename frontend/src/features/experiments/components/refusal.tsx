export interface RefusalProps {
  /** What was refused, for the heading: "run", "campaign". */
  what: string;
  /** Why the request itself failed (no answer, a server error), if it did. */
  failure?: string;
  /** The backend's problems that no control owns. */
  problems: string[];
}

/** Refusal lists why the backend refused a request, when there is something no field shows. */
export function Refusal({ what, failure, problems }: RefusalProps) {
  if (!failure && problems.length === 0) return null;
  return (
    <div className="error" role="alert">
      <p>The backend refused this {what}:</p>
      <ul>
        {failure && <li>{failure}</li>}
        {problems.map((problem) => (
          <li key={problem}>{problem}</li>
        ))}
      </ul>
    </div>
  );
}
