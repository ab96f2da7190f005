import type { RunKind, Worker } from '../api/workers';

const KIND_NAMES: Record<RunKind, string> = { kernel_tcp: 'kernel TCP', tunnel: 'tunnel', quic: 'QUIC' };
const KINDS: RunKind[] = ['kernel_tcp', 'tunnel', 'quic'];

/** capacityOf says how many runs of each kind a worker runs at once, as its calibration measured. */
export function capacityOf(worker: Worker): string {
  if (worker.calibration === null) return `not calibrated: ${worker.max_runs} at a time`;
  const counts = KINDS.filter((kind) => worker.calibration?.max_concurrent[kind] !== undefined).map(
    (kind) => `${KIND_NAMES[kind]} ${worker.calibration?.max_concurrent[kind]}`,
  );
  return counts.length > 0 ? counts.join(' · ') : 'no kind calibrated: one at a time';
}

/** kindName names a kind of run as the panel shows it. */
export const kindName = (kind: RunKind) => KIND_NAMES[kind];
