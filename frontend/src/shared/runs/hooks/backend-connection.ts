import { createContext, useContext } from 'react';
import { BackendUnreachableError } from '../../api';

/** What the parts of a page that follow runs need to know of the backend's comings and goings. */
export interface BackendConnection {
  /** Counts the backend's returns after an outage: reload, reopen streams and drop old errors when it changes. */
  generation: number;
  /** Whether the backend does not answer now. */
  lost: boolean;
  /** Say that a request found nobody: BackendUnreachableError, or a stream that closed early. */
  reportLost: () => void;
}

/**
 * The backend's connection, provided by the page that watches it (the experiment console); a
 * page that does not (a lab sheet) gets a backend that is always there and never reloads.
 */
export const BackendConnectionContext = createContext<BackendConnection>({ generation: 0, lost: false, reportLost: () => {} });

/** useBackendConnection gives a part of the page the backend's connection. */
export const useBackendConnection = () => useContext(BackendConnectionContext);

/**
 * whenUnreachable hands a failure to reportLost when it is the backend not answering (the banner
 * says so, once), and returns whether it was; other failures are the caller's to show.
 */
export function whenUnreachable(error: unknown, reportLost: () => void): boolean {
  if (!(error instanceof BackendUnreachableError)) return false;
  reportLost();
  return true;
}
