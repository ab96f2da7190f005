import { useCallback, useEffect, useState } from 'react';
import { currentSearch, paths, replaceAddress } from '../../config/paths';
import { type Choices, type FlatState, readState } from './url-state';

/**
 * useUrlState keeps a lab's state in the URL's query string, every field spelled out so that the
 * address is a complete link to the lab as it stands. It replaces the history entry rather than
 * adding one, so that moving through a setting does not flood the back button. page is the lab's
 * page, named first in the address. With a preset, the lab is embedded in another page (a lab
 * sheet): its state starts from defaults and preset, and stays out of the address.
 */
export function useUrlState<State extends FlatState>(
  defaults: State,
  choices: Choices<State>,
  page: 'fec' | 'channel',
  preset?: Partial<State>,
): [State, (patch: Partial<State>) => void] {
  const [state, setState] = useState(() => (preset ? { ...defaults, ...preset } : readState(currentSearch(), defaults, choices)));
  const inAddress = preset === undefined;
  useEffect(() => {
    if (inAddress) replaceAddress(paths.lab(page, state));
  }, [state, page, inAddress]);
  const update = useCallback((patch: Partial<State>) => setState((previous) => ({ ...previous, ...patch })), []);
  return [state, update];
}
