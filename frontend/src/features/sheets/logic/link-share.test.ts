import { describe, expect, it } from 'vitest';
import type { FlowSummary } from '../../../shared/runs';
import { linkShare } from './link-share';

const flow = (fields: Partial<FlowSummary>) => ({ goodput_mbps: 3, direction: 'download', ...fields }) as FlowSummary;
const path = { path: { forward: { rate_mbps: 12 } } };

describe('linkShare', () => {
  it('is the goodput over the forward rate', () => {
    expect(linkShare(flow({}), path)).toBe(0.25);
  });

  it('is unknown without a goodput or a rate, and for an upload', () => {
    expect(linkShare(flow({ goodput_mbps: null }), path)).toBeNull();
    expect(linkShare(flow({}), {})).toBeNull();
    expect(linkShare(flow({ direction: 'upload' }), path)).toBeNull();
  });
});
