import { request, type Schemas } from '../../../shared/api';

/** One worker as GET api/workers describes it (backend: api/models/workers.py, WorkerPublic). */
export type Worker = Schemas['WorkerPublic'];

/** A run a worker holds: running, or taken and waiting until the host has room for it. */
export type WorkerRun = Schemas['WorkerRunPublic'];

/** A kind of run, as a worker's calibration counts them apart (backend: satlab.engine.capacity). */
export type RunKind = WorkerRun['kind'];

/** GET api/workers: the `satlab worker`s a broker feeds, or this server itself without one. */
export type Workers = Schemas['WorkersPublic'];

/** getWorkers reads who runs the runs (a 503 says, in a sentence, why Redis cannot be used). */
export const getWorkers = () => request<Workers>('workers');
