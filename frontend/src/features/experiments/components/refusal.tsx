import type { Ref } from 'react';
import { paths } from '../../../config/paths';

export interface RefusalProps {
  /** What was asked for, for the heading: "run", "campaign". */
  what: string;
  /** Why the request itself failed (nobody answered, a server error), if it did: not a refusal. */
  failure?: string;
  /** The backend's problems that no control owns. */
  problems: string[];
  /** The server wants a sign-in first: the refusal says so and links to Sign in. */
  signIn?: boolean;
  /** The box, for the form to take the focus to it (useRefusalFocus). */
  ref?: Ref<HTMLDivElement>;
}

/**
 * Refusal says why a request did not go through, beside the button that sent it: the backend's
 * refusals that no field shows, why it failed, or that the server wants a sign-in first. It is an
 * alert (read as it comes) and takes the focus (tabIndex -1).
 */
export function Refusal({ what, failure, problems, signIn, ref }: RefusalProps) {
  if (!failure && problems.length === 0 && !signIn) return null;
  return (
    <div className="refusal" role="alert" tabIndex={-1} ref={ref}>
      {signIn && (
        <p className="error">
          This server wants to know who starts a {what}: <a href={paths.page('sign-in')}>sign in</a> first, as the instructor or with
          the class code.
        </p>
      )}
      {failure && <p className="error">{failure}</p>}
      {problems.length > 0 && (
        <div className="error">
          <p>The backend refused this {what}:</p>
          <ul>
            {problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
