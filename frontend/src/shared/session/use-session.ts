import { useEffect, useState } from 'react';
import { ApiError } from '../api';
import { type Session, getLimits, getMe } from './session';

/**
 * useSession asks once who this browser is and what the server's limits are; undefined until both
 * are known or when the server does not say (no backend): the forms then offer everything and the
 * API decides.
 */
export function useSession(): Session | undefined {
  const [session, setSession] = useState<Session>();
  useEffect(() => {
    let current = true;
    getMe().then(
      async (me) => {
        // The limits are listed to a session the server lets in; a signed-out one gets a 401.
        const limits = await getLimits().then(
          (list) => Object.fromEntries(list.map((limit) => [limit.name, limit.value])),
          (error: unknown) => {
            if (error instanceof ApiError) return {};
            throw error;
          },
        );
        if (current) setSession({ me, limits });
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, []);
  return session;
}
