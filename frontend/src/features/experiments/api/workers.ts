import { request } from '../../../shared/api';

/** A kind of run, as a worker's calibration counts them apart (backend: satlab.engine.capacity). */
export type RunKind = 'kernel_tcp' | 'tunnel' | 'quic';

/** A run a worker holds: running, or taken and waiting until the host has room for it. */
export interface WorkerRun {
  run_id: string;
  kind: RunKind;
  attempt: number;
  state: 'running' | 'waiting';
  since: number | null;
}

/** One worker as GET api/workers describes it (backend: api/models/workers.py, WorkerPublic). */
export interface Worker {
  name: string;
  host: string;
  kernel: string;
  satlab_version: string | null;
  started_at: number | null;
  seen_at: number;
  calibration: { measured_at: string; max_concurrent: Partial<Record<RunKind, number>> } | null;
  max_runs: number;
  runs: WorkerRun[];
  refused: number;
  last_refusal: string | null;
  waiting_reason: string | null;
}

/** GET api/workers: the `satlab worker`s a broker feeds, or this server itself without one. */
export interface Workers {
  broker: 'none' | 'connected';
  workers: Worker[];
}

/** getWorkers reads who runs the runs (a 503 says, in a sentence, why Redis cannot be used). */
export const getWorkers = () => request<Workers>('workers');
