import { describe, expect, it } from 'vitest';
import { flowQuotaProblems } from './quota-check';

describe('flowQuotaProblems', () => {
  const limits = { student_flow_bytes: 50_000_000, student_flow_duration_s: 120 };

  it('refuses a flow beyond the student quota before it is sent, in units, naming the quota', () => {
    // Issue 18: the form accepted a 60 MB flow and learnt of the quota only from the API.
    expect(flowQuotaProblems({ sizeBytes: 60_000_000, durationS: null }, limits)).toEqual([
      'Your quota lets a flow move at most 50 MB (50,000,000 bytes) (student_flow_bytes, set by the instructor); this is 60 MB (60,000,000 bytes).',
    ]);
    expect(flowQuotaProblems({ sizeBytes: null, durationS: 300 }, limits)).toEqual([
      'Your quota lets a flow last at most 120 s (student_flow_duration_s, set by the instructor); this one lasts 300 s.',
    ]);
  });

  it('lets through what the quota allows, and everything when no quota is known', () => {
    expect(flowQuotaProblems({ sizeBytes: 50_000_000, durationS: null }, limits)).toEqual([]);
    expect(flowQuotaProblems({ sizeBytes: 60_000_000, durationS: null }, {})).toEqual([]);
  });
});
