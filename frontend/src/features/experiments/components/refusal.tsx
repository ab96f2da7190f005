export interface RefusalProps {
  /** What was asked for, for the heading: "run", "campaign". */
  what: string;
  /** Why the request itself failed (nobody answered, a server error), if it did: not a refusal. */
  failure?: string;
  /** The backend's problems that no control owns. */
  problems: string[];
}

/** Refusal says why a request did not go through: the backend's refusals that no field shows, or why it failed. */
export function Refusal({ what, failure, problems }: RefusalProps) {
  return (
    <>
      {failure && (
        <p className="error" role="alert">
          {failure}
        </p>
      )}
      {problems.length > 0 && (
        <div className="error" role="alert">
          <p>The backend refused this {what}:</p>
          <ul>
            {problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}
