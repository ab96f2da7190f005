/**
 * How long to wait before asking the backend again after it went away (the experiment console's
 * backend, a study run's stream): doubling from 1 s, so that a restarted backend is found soon
 * without being asked every second while it is down.
 */

/** The longest wait between two attempts: a restarted backend is found within half a minute. */
export const RETRY_MAX_MS = 30_000;

/** retryDelayMs is the wait before the next attempt: 1 s, 2 s, 4 s… up to RETRY_MAX_MS. */
export const retryDelayMs = (attempts: number) => Math.min(RETRY_MAX_MS, 1000 * 2 ** attempts);
