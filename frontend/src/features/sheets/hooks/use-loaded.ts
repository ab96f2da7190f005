import { useEffect, useState } from 'react';

export type Loaded<Value> = { status: 'loading' } | { status: 'ready'; value: Value } | { status: 'failed'; message: string };

/** useLoaded runs load once per key and says where it is: loading, its value, or why it failed. */
export function useLoaded<Value>(key: string, load: () => Promise<Value>): Loaded<Value> {
  const [state, setState] = useState<{ key: string; loaded: Loaded<Value> }>({ key, loaded: { status: 'loading' } });
  useEffect(() => {
    let current = true;
    load().then(
      (value) => current && setState({ key, loaded: { status: 'ready', value } }),
      (error: Error) => current && setState({ key, loaded: { status: 'failed', message: error.message } }),
    );
    return () => {
      current = false;
    };
    // load is the caller's function of key: key alone says when to load again.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- load: see above
  }, [key]);
  return state.key === key ? state.loaded : { status: 'loading' };
}
