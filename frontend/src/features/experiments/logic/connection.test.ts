import { describe, expect, it } from 'vitest';
import { retryDelayMs } from '../../../shared/runs';
import { connectionReducer, initialConnection } from './connection';

describe('connectionReducer', () => {
  it('starts a new generation when the lost backend answers again', () => {
    let connection = connectionReducer(initialConnection, { type: 'lost' });
    connection = connectionReducer(connection, { type: 'probe-failed' });
    connection = connectionReducer(connection, { type: 'probe-failed' });
    expect(connection).toMatchObject({ lost: true, attempts: 2, generation: 0 });
    connection = connectionReducer(connection, { type: 'back' });
    expect(connection).toMatchObject({ lost: false, attempts: 0, generation: 1 });
  });

  it('does not restart the backoff when more failures report the same outage', () => {
    const lost = connectionReducer(connectionReducer(initialConnection, { type: 'lost' }), { type: 'probe-failed' });
    expect(connectionReducer(lost, { type: 'lost' })).toBe(lost);
  });

  it('starts a new generation for a backend that restarted between two looks', () => {
    expect(connectionReducer(initialConnection, { type: 'restarted' })).toMatchObject({ lost: false, generation: 1 });
  });

  it('starts no generation for an answer while nothing was lost', () => {
    expect(connectionReducer(initialConnection, { type: 'back' })).toBe(initialConnection);
  });
});

describe('retryDelayMs', () => {
  it('doubles from a second up to half a minute', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 20].map(retryDelayMs)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });
});
