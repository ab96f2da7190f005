import { useCallback, useEffect, useState } from 'react';
import { ApiError } from '../../../shared/api';
import { type ProblemDetail, useBackendConnection, whenUnreachable } from '../../../shared/runs';
import type { Problem } from '../logic/problems';

export interface Refused {
  /** The API's refusals (a 422), by field. */
  problems: Problem[];
  /** Why the request did not go through otherwise: nobody answered, or a server error. */
  failure?: string;
  /** The server wants a sign-in first (401): the refusal links to Sign in. */
  signIn?: boolean;
}

/**
 * useSubmission sends a form's request once at a time and keeps why it did not go through: the
 * API's refusals, read by problemsOf, or a failure sentence ("The run did not start: …"). When
 * nobody answered, the console's banner says so too, and the failure goes once the backend is back.
 */
export function useSubmission(what: string) {
  const { generation, reportLost } = useBackendConnection();
  const [refused, setRefused] = useState<Refused | null>(null);
  const [submitting, setSubmitting] = useState(false);
  useEffect(() => setRefused((current) => (current?.failure ? null : current)), [generation]);

  const submit = useCallback(
    async <Result>(send: () => Promise<Result>, problemsOf: (detail: ProblemDetail[]) => Problem[], onDone: (result: Result) => void) => {
      setSubmitting(true);
      try {
        const result = await send();
        setRefused(null);
        onDone(result);
      } catch (error) {
        whenUnreachable(error, reportLost);
        setRefused(
          error instanceof ApiError && error.status === 401
            ? { problems: [], signIn: true }
            : error instanceof ApiError && error.problems.length > 0
              ? { problems: problemsOf(error.problems) }
              : { problems: [], failure: `The ${what} did not start: ${(error as Error).message}` },
        );
      } finally {
        setSubmitting(false);
      }
    },
    [what, reportLost],
  );
  return { refused, submitting, submit, clear: useCallback(() => setRefused(null), []) };
}
