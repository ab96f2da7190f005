import type { Schemas } from '../../api';

/**
 * A queued run's place in line, as GET api/runs/{id}/queue gives it: queue_position 1 is the next
 * to start, null once the run is no longer queued; estimated_start_s about when it starts, seconds
 * from now (from recent runs' lengths), null before any ran.
 */
export type QueuePlace = Schemas['QueuePlace'];

const ordinal = (n: number) => {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
  return `${n}${suffix}`;
};

/** queueLabel says where a queued run stands: "3rd in line, about 2 min" (null: not queued). */
export function queueLabel(place: QueuePlace | null): string | null {
  if (place?.queue_position == null) return null;
  const line = place.queue_position === 1 ? 'next in line' : `${ordinal(place.queue_position)} in line`;
  if (place.estimated_start_s == null) return line;
  const minutes = Math.round(place.estimated_start_s / 60);
  return `${line}, about ${minutes < 1 ? 'a minute or less' : `${minutes} min`}`;
}
