/**
 * Runs and campaigns on the satlab backend, shared by the experiment console, the Studies page and
 * the lab sheets: the API's client and types, the live hooks (a run's stream and samples, a
 * campaign's progress), and the run's view and charts. The pages import this file only.
 */
export {
  cancelCampaign,
  cancelRun,
  createCampaign,
  createRun,
  deleteRun,
  getCampaign,
  getCapabilities,
  getLab,
  getLabs,
  getRun,
  getSamples,
  listCampaignRuns,
  listCampaigns,
  listRuns,
  openStream,
  resumeCampaign,
  shareRun,
  STREAM_NOT_FOUND,
} from './api/client';
export { campaignCsvUrl, type CsvKind, csvKinds, csvUrl } from './api/csv-urls';
export type * from './api/types';
export { finishedStatuses } from './api/types';
export { CampaignProgressBar, type CampaignProgressBarProps } from './components/campaign-progress';
export { PepCharts, type PepChartsProps } from './components/pep-charts';
export { RunCharts, type RunChartsProps } from './components/run-charts';
export { RunPanel, type RunPanelProps } from './components/run-panel';
export { RunSummary, type RunSummaryProps } from './components/run-summary';
export { StreamNotice, type StreamNoticeProps } from './components/stream-notice';
export { type BackendConnection, BackendConnectionContext, useBackendConnection, whenUnreachable } from './hooks/backend-connection';
export { useBurstRefresh } from './hooks/use-burst-refresh';
export { useCampaignLive } from './hooks/use-campaign-live';
export { useRunView } from './hooks/use-run-view';
export { type CampaignLive, campaignLiveReducer, initialCampaignLive, progressText } from './logic/campaign-view';
export { RETRY_MAX_MS, retryDelayMs } from './logic/retry-delay';
export { flowRoles, formatConvergence, formatPercent, formatStartup } from './logic/flow-metrics';
export { fidelityVerdict, hostLateNote } from './logic/fidelity';
export { glossary, type GlossaryTerm } from './logic/glossary';
export { clientView, type Hop, hopNames } from './logic/hops';
export { pepCharts } from './logic/pep-series';
export { describeForwardChannel, describeScenario, formatDuration, formatNumber, formatSize } from './logic/run-format';
export { isFinished, type Phase, phaseLabel, type StreamState } from './logic/run-view';
export {
  type ChartSpec,
  flowLabels,
  flowMetrics,
  iterationsOf,
  lastTime,
  type Point,
  runCharts,
  type Series,
  seriesOf,
} from './logic/series';
