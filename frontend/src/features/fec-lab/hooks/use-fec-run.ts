import { useCallback, useEffect, useRef, useState } from 'react';
import type { Codec } from '../../../lib/codec';
import { FecRun, type FecRunConfig, type FecRunView } from '../logic/fec-run';

export interface FecRunControls {
  /** The run as it stands; undefined without a configuration, or when the codec rejects it. */
  view?: FecRunView;
  /** Why the codec rejected the configuration, as a sentence. */
  error?: string;
  /** True while packets go out on their own, one per tick. */
  playing: boolean;
  /** Sends one packet. */
  step: () => void;
  /** Sends every remaining packet at once. */
  finish: () => void;
  /** Sends packets at the chosen speed until the run is finished or paused. */
  play: () => void;
  /** Stops sending after the current packet. */
  pause: () => void;
  /** Starts the same run again from the first packet. */
  reset: () => void;
}

/**
 * useFecRun owns one FecRun for a configuration (a new one whenever it changes) and plays it at
 * packetsPerSecond. config must keep its identity while unchanged.
 */
export function useFecRun(codec: Codec, config: FecRunConfig | undefined, packetsPerSecond: number): FecRunControls {
  const run = useRef<FecRun | undefined>(undefined);
  /** The run Play started: a tick of its timer steps that run only, never one created since. */
  const playingRun = useRef<FecRun | undefined>(undefined);
  const [view, setView] = useState<FecRunView>();
  const [error, setError] = useState<string>();
  const [playing, setPlaying] = useState(false);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    setPlaying(false);
    setError(undefined);
    if (!config) {
      setView(undefined);
      return;
    }
    let created: FecRun;
    try {
      created = new FecRun(codec, config);
    } catch (failure) {
      setView(undefined);
      setError((failure as Error).message);
      return;
    }
    run.current = created;
    setView(created.view());
    return () => {
      run.current = undefined;
      created.free();
    };
  }, [codec, config, generation]);

  const step = useCallback(() => {
    const current = run.current;
    if (!current || current.finished) return;
    current.step();
    setView(current.view());
  }, []);

  const finish = useCallback(() => {
    const current = run.current;
    if (!current) return;
    while (current.step());
    setView(current.view());
    setPlaying(false);
  }, []);

  useEffect(() => {
    if (!playing) return;
    const timer = window.setInterval(() => {
      // A new configuration replaces the run before this timer is cleared: its ticks must not
      // step the new run, which starts paused at packet 0.
      if (run.current !== playingRun.current) return;
      step();
      if (run.current?.finished ?? true) setPlaying(false);
    }, 1000 / packetsPerSecond);
    return () => window.clearInterval(timer);
  }, [playing, packetsPerSecond, step]);

  return {
    view,
    error,
    playing,
    step,
    finish,
    play: () => {
      playingRun.current = run.current;
      setPlaying(true);
    },
    pause: () => setPlaying(false),
    reset: () => setGeneration((value) => value + 1),
  };
}
