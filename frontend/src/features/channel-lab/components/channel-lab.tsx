import { useId, useMemo } from 'react';
import { Measure } from '../../../components/help';
import { NumberField, TextField } from '../../../components/form';
import {
  ChannelFields,
  channelKindLabels,
  channelPresets,
  channelProblems,
  defaultChannelParams,
  toChannelConfig,
} from '../../../lib/channel';
import { codeProblems, hasProblems, kAboveZ, wholeNumberProblem } from '../../../lib/code-limits';
import type { Codec } from '../../../lib/codec';
import { useUrlState } from '../../../lib/url-state';
import { formatCount, formatPercent } from '../logic/format';
import { channelSource } from '../logic/figures';
import { channelGlossary } from '../logic/glossary';
import { type BurstBin, burstHistogram, lossRate, sampleLosses } from '../logic/loss-pattern';
import { type ResidualCurveRequest, parseKs } from '../logic/residual-curve';
import { ChannelStatsPanel } from './channel-stats';
import { LossRaster } from './loss-raster';
import { MonteCarloPanels } from './monte-carlo-panels';

export interface ChannelLabProps {
  /** The loaded WebAssembly codec. */
  codec: Codec;
  /** Settings that replace the defaults, for a lab embedded in a lab sheet: its state then stays out of the address. */
  preset?: Partial<ChannelLabSettings>;
}

const opticalPreset = channelPresets.find((preset) => preset.id === 'optical')?.params ?? {};

const defaults = {
  ...defaultChannelParams,
  ...opticalPreset,
  /** Packets drawn from the channel for the loss pattern and the burst histogram. */
  packets: 20000,
  /** Packets per row of the loss raster: the period of an outage lines its outages up. */
  rowPackets: 1000,
  z: 100,
  ks: '1,2,3,4,5,6,8,10,15,20',
  /** Source packets per point of the Monte-Carlo. */
  sources: 50000,
};

type State = typeof defaults;
type CurveSettings = Omit<State, 'packets' | 'rowPackets'>;

/** The lab's own ranges, beside the codec's: what the page can draw and compute in reasonable time. */
const sampleLimits = {
  packets: { min: 100, max: 1_000_000 },
  rowPackets: { min: 10, max: 100_000 },
  sources: { min: 100, max: 10_000_000 },
};

interface LossPattern {
  lost: Uint8Array;
  bins: BurstBin[];
  rate: number;
}

const choices = { kind: Object.keys(channelKindLabels) };

/** Every setting of the lab, its default (which gives its type) and the values a choice allows: what a preset may set. */
export const channelLabSettings = { defaults, choices };
export type ChannelLabSettings = State;

/** settingProblems is what the lab refuses of its settings, by field, one sentence each. */
function settingProblems(state: State): Partial<Record<keyof State, string[]>> {
  const problems: Partial<Record<keyof State, string[]>> = { ...channelProblems(state), ...codeProblems({ z: state.z }) };
  const names = { packets: 'Packets drawn', rowPackets: 'Packets per row', sources: 'Source packets per k' };
  for (const field of ['packets', 'rowPackets', 'sources'] as const) {
    const problem = wholeNumberProblem(names[field], state[field], sampleLimits[field]);
    if (problem) problems[field] = [problem];
  }
  try {
    const tooLarge = parseKs(state.ks).filter((k) => k > state.z);
    if (tooLarge.length > 0 && !problems.z) problems.ks = [kAboveZ(tooLarge[0], state.z)];
  } catch (error) {
    problems.ks = [(error as Error).message];
  }
  return problems;
}

/**
 * ChannelLab shows what a channel model does to a packet stream: losses over time, burst lengths,
 * the measured loss rate, and the residual loss after S(k,z) for a range of k, by Monte-Carlo with
 * the WebAssembly codec in a Web Worker.
 */
export function ChannelLab({ codec, preset }: ChannelLabProps) {
  const [state, update] = useUrlState(defaults, choices, 'channel', preset);
  const id = useId();
  const problems = settingProblems(state);
  const refused = hasProblems(problems);
  const { packets, rowPackets, ...curveSettings } = state;
  // The Monte-Carlo reruns when a setting it depends on changes: not for the sample or the raster.
  const curveKey = refused ? '' : JSON.stringify(curveSettings);
  const request = useMemo(() => (curveKey ? toRequest(JSON.parse(curveKey) as CurveSettings) : undefined), [curveKey]);
  // The loss pattern depends on the channel and the sample only: not on the code or the Monte-Carlo's size.
  const patternKey = request ? JSON.stringify([request.channel, request.packetMs, packets]) : '';
  const pattern = useMemo<LossPattern | undefined>(() => {
    if (!patternKey) return undefined;
    const [channel, packetMs, count] = JSON.parse(patternKey) as [ResidualCurveRequest['channel'], number, number];
    const lost = sampleLosses(codec, channel, packetMs, count);
    return { lost, bins: burstHistogram(lost), rate: lossRate(lost) };
  }, [codec, patternKey]);
  const bursts = pattern?.bins ?? [];
  const burstCount = bursts.reduce((total, bin) => total + bin.count, 0);
  const meanBurst = burstCount === 0 ? 0 : bursts.reduce((total, bin) => total + bin.length * bin.count, 0) / burstCount;
  // The loss pattern's figures name the channel and the sample that drew them.
  const patternSource =
    request && pattern ? `${channelSource(request.channel, request.packetMs)}; ${pattern.lost.length.toLocaleString('en')} packets drawn` : '';

  return (
    <div className="lab">
      <form className="lab-settings" aria-label="Channel lab settings" onSubmit={(event) => event.preventDefault()}>
        <ChannelFields params={state} onChange={update} problems={problems} />
        <fieldset>
          <legend>Sample</legend>
          <NumberField label="Packets drawn" step={1000} value={packets} onChange={(value) => update({ packets: value })} problems={problems.packets} />
          <NumberField
            label="Packets per row"
            step={10}
            value={rowPackets}
            onChange={(value) => update({ rowPackets: value })}
            hint="Rows as long as an outage period line its outages up."
            problems={problems.rowPackets}
          />
        </fieldset>
        <fieldset>
          <legend>Monte-Carlo of S(k,z)</legend>
          <NumberField label="z, window size" step={1} value={state.z} onChange={(z) => update({ z })} problems={problems.z} />
          <TextField
            label="Values of k"
            value={state.ks}
            onChange={(ks) => update({ ks })}
            hint="A list like 1,2,5-8, each at most z"
            problems={problems.ks}
          />
          <NumberField
            label="Source packets per k"
            step={10000}
            value={state.sources}
            onChange={(sources) => update({ sources })}
            problems={problems.sources}
            hint="More sources narrow each point's 95 % interval, as 1/√n."
          />
        </fieldset>
      </form>
      <div className="lab-stage">
        {refused && (
          <p className="error" role="alert">
            The lab cannot run these settings: each refused field says why, beside it.
          </p>
        )}
        {pattern && (
          <section className="panel" aria-labelledby={`${id}-pattern`}>
            <h2 id={`${id}-pattern`}>Losses over time</h2>
            <dl className="counters">
              <Measure label="Measured loss" value={formatPercent(pattern.rate)} help={channelGlossary.measuredLoss} />
              <Measure label="Packets drawn" value={pattern.lost.length.toLocaleString('en')} help={channelGlossary.packetsDrawn} />
              <Measure label="Bursts" value={burstCount.toLocaleString('en')} help={channelGlossary.bursts} />
              <Measure label="Mean burst" value={formatCount(meanBurst, 'packet')} help={channelGlossary.meanBurst} />
              <Measure label="Packet spacing" value={`${state.packetMs} ms`} help={channelGlossary.packetSpacing} />
            </dl>
            <LossRaster lost={pattern.lost} packetMs={state.packetMs} packetsPerRow={rowPackets} source={patternSource} />
          </section>
        )}
        {request && <ChannelStatsPanel codec={codec} channel={request.channel} />}
        {pattern && request && <MonteCarloPanels request={request} bins={pattern.bins} binsSource={patternSource} z={state.z} sources={state.sources} />}
      </div>
    </div>
  );
}

/** toRequest turns settings the lab accepts into a Monte-Carlo request. */
function toRequest(settings: CurveSettings): ResidualCurveRequest {
  return {
    channel: toChannelConfig(settings),
    packetMs: settings.packetMs,
    z: settings.z,
    ks: parseKs(settings.ks),
    sources: settings.sources,
  };
}
