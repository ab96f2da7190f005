import type { FlowSummary } from '../../../shared/runs';

/** What a reference run's scenario tells of its path: the forward link's rate. */
interface WithForwardRate {
  path?: { forward?: { rate_mbps?: number } };
}

/**
 * linkShare is a flow's goodput as a fraction of the forward link's rate: a download's use of the
 * bottleneck (link utilisation, for a flow alone). null when either is unknown, and for uploads,
 * which do not cross the forward link.
 */
export function linkShare(flow: FlowSummary, scenario: WithForwardRate): number | null {
  const rate = scenario.path?.forward?.rate_mbps;
  if (flow.goodput_mbps === null || !rate || flow.direction === 'upload') return null;
  return flow.goodput_mbps / rate;
}
