import { describe, expect, it } from 'vitest';
import { limitNameInWords, limitValueInWords } from './quota-words';

describe('limits in words', () => {
  it('gives each value its unit, and a yes or no for the one that is a choice', () => {
    // Issue 18: the student's table read "1 lets students start campaigns, 0 keeps them to the instructor | 0" and "50000000".
    expect(limitValueInWords('student_campaigns', 0)).toBe('no');
    expect(limitValueInWords('student_campaigns', 1)).toBe('yes');
    expect(limitNameInWords('student_campaigns', '1 lets students start campaigns, 0 keeps them to the instructor')).toBe(
      'Students may start campaigns',
    );
    expect(limitValueInWords('student_flow_bytes', 50_000_000)).toBe('50 MB (50,000,000 bytes)');
    expect(limitValueInWords('run_artifact_bytes', 268_435_456)).toBe('268.4 MB (268,435,456 bytes)');
    expect(limitValueInWords('student_flow_duration_s', 120)).toBe('120 s');
    expect(limitValueInWords('student_cross_traffic_mbps', 20)).toBe('20 Mbit/s');
    expect(limitValueInWords('retention_days', 30)).toBe('30 days');
    expect(limitValueInWords('student_runs_per_hour', 20)).toBe('20');
    expect(limitNameInWords('student_flow_bytes', "bytes one flow of a student's run may move (size_bytes)")).toBe(
      "Bytes one flow of a student's run may move (size_bytes)",
    );
  });
});
