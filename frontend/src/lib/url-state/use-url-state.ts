import { useCallback, useEffect, useState } from 'react';
import { type Choices, type FlatState, readState, writeState } from './url-state';

/**
 * useUrlState keeps a lab's state in the URL's query string, every field spelled out so that the
 * address is a complete link to the lab as it stands. It replaces the history entry rather than
 * adding one, so that moving through a setting does not flood the back button. prefix holds the
 * fields that name the page, e.g. { lab: 'fec' }. With a preset, the lab is embedded in another
 * page (a lab sheet): its state starts from defaults and preset, and stays out of the address.
 */
export function useUrlState<State extends FlatState>(
  defaults: State,
  choices: Choices<State>,
  prefix: FlatState,
  preset?: Partial<State>,
): [State, (patch: Partial<State>) => void] {
  const [state, setState] = useState(() => (preset ? { ...defaults, ...preset } : readState(window.location.search, defaults, choices)));
  const inAddress = preset === undefined;
  useEffect(() => {
    if (inAddress) window.history.replaceState(null, '', writeState(state, prefix));
  }, [state, prefix, inAddress]);
  const update = useCallback((patch: Partial<State>) => setState((previous) => ({ ...previous, ...patch })), []);
  return [state, update];
}
