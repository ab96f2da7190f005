import { useEffect, useState } from 'react';
import { getLab, type LabDetail } from '../../../shared/runs';

export type LabState = { name: string; detail?: LabDetail; error?: string };

/** useLab loads one lab's scenario (as validated) and text; detail is absent while it loads. */
export function useLab(name: string): LabState {
  const [state, setState] = useState<LabState>({ name });
  useEffect(() => {
    if (name === '') return;
    let current = true;
    getLab(name).then(
      (detail) => current && setState({ name, detail }),
      (error: Error) => current && setState({ name, error: `The lab ${name} did not load: ${error.message}` }),
    );
    return () => {
      current = false;
    };
  }, [name]);
  // Until the new lab arrives, the previous one's state is not this lab's.
  return state.name === name ? state : { name };
}
