import { limitValueInWords } from '../../../shared/session';

/**
 * flowQuotaProblems says, before anything is sent, where a flow of a student's run goes beyond the
 * students' quotas (GET /api/limits): its size (student_flow_bytes) or its duration
 * (student_flow_duration_s), in words and units, naming the quota. The API checks it again.
 */
export function flowQuotaProblems(flow: { sizeBytes: number | null; durationS: number | null }, limits: Record<string, number>): string[] {
  const problems: string[] = [];
  const bytes = limits.student_flow_bytes;
  if (flow.sizeBytes !== null && bytes !== undefined && flow.sizeBytes > bytes) {
    problems.push(
      `Your quota lets a flow move at most ${limitValueInWords('student_flow_bytes', bytes)} (student_flow_bytes, set by the instructor); ` +
        `this is ${limitValueInWords('student_flow_bytes', flow.sizeBytes)}.`,
    );
  }
  const seconds = limits.student_flow_duration_s;
  if (flow.sizeBytes === null && flow.durationS !== null && seconds !== undefined && flow.durationS > seconds) {
    problems.push(
      `Your quota lets a flow last at most ${limitValueInWords('student_flow_duration_s', seconds)} (student_flow_duration_s, set by ` +
        `the instructor); this one lasts ${limitValueInWords('student_flow_duration_s', flow.durationS)}.`,
    );
  }
  return problems;
}
