/**
 * Whether the backend answers, as the console sees it: lost when a request finds nobody or the
 * events stream closes; then it asks again after a growing delay (or at once, on Retry) until the
 * backend answers, and each return starts a new generation, which the lists, streams and forms
 * follow to reload, reopen and forget the errors of the outage.
 */
export interface Connection {
  lost: boolean;
  /** Failed attempts to reach the backend since it was lost. */
  attempts: number;
  /** Counts the backend's returns; what shows the backend's state reloads when it changes. */
  generation: number;
  /** Counts Retry presses: a press asks at once. */
  retries: number;
}

export type ConnectionAction = { type: 'lost' } | { type: 'probe-failed' } | { type: 'back' } | { type: 'retry' } | { type: 'restarted' };

export const initialConnection: Connection = { lost: false, attempts: 0, generation: 0, retries: 0 };

export function connectionReducer(connection: Connection, action: ConnectionAction): Connection {
  switch (action.type) {
    case 'lost':
      return connection.lost ? connection : { ...connection, lost: true, attempts: 0 };
    case 'probe-failed':
      return { ...connection, attempts: connection.attempts + 1 };
    case 'back':
      return connection.lost ? { ...connection, lost: false, attempts: 0, generation: connection.generation + 1 } : connection;
    case 'retry':
      return { ...connection, retries: connection.retries + 1 };
    case 'restarted':
      // The backend went and came back between two looks (its stream closed, it answers): reload all the same.
      return { ...connection, lost: false, attempts: 0, generation: connection.generation + 1 };
  }
}
