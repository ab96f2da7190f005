import type { FlowSummary } from '../api/types';
import { formatNumber } from './run-format';

/** formatStartup gives the start-up's length in s, "not reached" for a finished flow that never reached 90 % of its bottleneck. */
export function formatStartup(flow: FlowSummary): string {
  if (flow.startup_s !== null && flow.startup_s !== undefined) return formatNumber(flow.startup_s, 1);
  const summarised = flow.startup_goodput_mbps !== null && flow.startup_goodput_mbps !== undefined;
  return summarised && flow.error === null ? 'not reached' : '–';
}

/** formatConvergence gives a latecomer's convergence time in s, or "never"; a dash for a flow that is no latecomer. */
export function formatConvergence(flow: FlowSummary): string {
  if (!flow.latecomer) return '–';
  return flow.latecomer_convergence_s === null || flow.latecomer_convergence_s === undefined
    ? 'never'
    : formatNumber(flow.latecomer_convergence_s, 1);
}

/** formatPercent gives a ratio in % (the column's header has the unit), a dash where there is none. */
export const formatPercent = (ratio: number | null | undefined) =>
  ratio === null || ratio === undefined ? '–' : formatNumber(ratio * 100, 1);

/** flowRoles names what a flow is beside the iteration's others: a latecomer, a short flow beside a long one. */
export function flowRoles(flow: FlowSummary): string {
  return [flow.latecomer && 'latecomer', flow.short_beside_long && 'short beside long'].filter(Boolean).join(', ');
}
