import { describe, expect, it } from 'vitest';
import { queueLabel } from './queue-place';

describe('queueLabel', () => {
  it('says the place in line and about when the run starts', () => {
    expect(queueLabel({ queue_position: 3, estimated_start_s: 130 })).toBe('3rd in line, about 2 min');
    expect(queueLabel({ queue_position: 1, estimated_start_s: 20 })).toBe('next in line, about a minute or less');
    expect(queueLabel({ queue_position: 12, estimated_start_s: null })).toBe('12th in line');
    expect(queueLabel({ queue_position: 22, estimated_start_s: 600 })).toBe('22nd in line, about 10 min');
  });

  it('says nothing for a run that is not queued', () => {
    expect(queueLabel({ queue_position: null, estimated_start_s: null })).toBeNull();
    expect(queueLabel(null)).toBeNull();
  });
});
