import table from '../../../../labs/channels.json';
import type { ChannelParams } from './channel-params';

/**
 * The channel presets: labs/channels.json, the one table the browser labs and the backend's labs
 * share (backend/tests/test_channel_presets.py checks each lab against it), read at build time.
 * Each channel is written as in a scenario (backend/README.md, "Scenario format").
 */

/** A channel of the table, in the scenario's words. */
export type ScenarioChannel =
  | { model: 'bernoulli'; loss: number }
  | { model: 'ge-packet'; p: number; q: number; loss_good?: number; loss_bad?: number }
  | { model: 'ge-time'; p: number; q: number; step_ms: number; loss_time_ratio?: number; mean_burst_ms?: number }
  | { model: 'outage'; period_ms: number; duration_ms: number; phase_ms?: number; jitter_ms?: number };

export interface ChannelPreset {
  /** A short name, stable across versions. */
  id: string;
  /** What a person reads in the preset list: the name, then what the channel does. */
  label: string;
  /** The fields the preset sets; the others keep their values. */
  params: Partial<ChannelParams>;
  /** Where the browser's channel differs from a backend run's, said beside the preset. */
  note?: string;
}

/**
 * presetParams is a scenario channel as the labs' parameters. An outage whose phase the scenario
 * leaves open (a backend run draws it per iteration from the channel's seed) starts at 0 ms here.
 */
export function presetParams(channel: ScenarioChannel): Partial<ChannelParams> {
  switch (channel.model) {
    case 'bernoulli':
      return { kind: 'bernoulli', loss: channel.loss };
    case 'ge-packet':
      return { kind: 'ge_packet', p: channel.p, q: channel.q, lossGood: channel.loss_good ?? 0, lossBad: channel.loss_bad ?? 1 };
    case 'ge-time':
      return { kind: 'ge_time', p: channel.p, q: channel.q, stepMs: channel.step_ms };
    case 'outage':
      return {
        kind: 'outage',
        periodMs: channel.period_ms,
        durationMs: channel.duration_ms,
        phaseMs: channel.phase_ms ?? 0,
        jitterMs: channel.jitter_ms ?? 0,
      };
  }
}

const drawnPhaseNote =
  'Here the first outage starts at 0 ms (First outage at); a run on the backend draws its time per iteration from the channel\'s seed.';

/** The channels of the studies behind satlab (DESIGN.md, section 1), as labs/channels.json defines them. */
export const channelPresets: ChannelPreset[] = table.presets.map(({ id, label, summary, channel }) => {
  const scenario = channel as ScenarioChannel;
  const phaseDrawn = scenario.model === 'outage' && scenario.phase_ms === undefined;
  return { id, label: `${label}: ${summary}`, params: presetParams(scenario), ...(phaseDrawn ? { note: drawnPhaseNote } : {}) };
});
