import { useId, useMemo } from 'react';
import { HelpTip } from '../../../components/help-tip';
import { Measure } from '../../../components/measure';
import { NumberField } from '../../../components/number-field';
import { TextField } from '../../../components/text-field';
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
import { useResidualCurve } from '../hooks/use-residual-curve';
import { formatCount, formatPercent } from '../logic/format';
import { channelGlossary } from '../logic/glossary';
import { type BurstBin, burstHistogram, lossRate, sampleLosses } from '../logic/loss-pattern';
import { type ResidualCurveRequest, type ResidualPoint, parseKs } from '../logic/residual-curve';
import { convergenceNote, samplingNote } from '../logic/convergence';
import { residualEstimate } from '../logic/residual-interval';
import { BurstHistogram } from './burst-histogram';
import { ChannelStatsPanel } from './channel-stats';
import { LossRaster } from './loss-raster';
import { ResidualChart } from './residual-chart';

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
const page = { lab: 'channel' };
/** The redundancy settings of the studies behind satlab, marked in the results. */
const studiedKs = [2, 5, 10];

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
  const [state, update] = useUrlState(defaults, choices, page, preset);
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
  const curve = useResidualCurve(request);
  const bursts = pattern?.bins ?? [];
  const burstCount = bursts.reduce((total, bin) => total + bin.count, 0);
  const meanBurst = burstCount === 0 ? 0 : bursts.reduce((total, bin) => total + bin.length * bin.count, 0) / burstCount;
  const counts = curve.points.map((point) => point.sources);
  const counted = { least: Math.min(...counts, Infinity), most: Math.max(...counts, 0) };

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
        {curve.error && (
          <p className="error" role="alert">
            {curve.error}
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
            <LossRaster lost={pattern.lost} packetMs={state.packetMs} packetsPerRow={rowPackets} />
          </section>
        )}
        {request && <ChannelStatsPanel codec={codec} channel={request.channel} />}
        {pattern && request && (
          <>
            <div className="panel-row">
              <section className="panel" aria-labelledby={`${id}-bursts`}>
                <h2 id={`${id}-bursts`}>Burst lengths</h2>
                <BurstHistogram bins={bursts} />
              </section>
              <section className="panel" aria-labelledby={`${id}-residual`}>
                <h2 id={`${id}-residual`}>Residual loss after S(k,{state.z})</h2>
                <div className="monte-carlo-status">
                  <p role="status" data-packets={curve.points.reduce((total, point) => total + point.packets, 0)}>
                    {curve.status === 'computing'
                      ? `Computing… ${countedText(counted, state.sources)} source packets per k`
                      : curve.status === 'stopped'
                        ? `Stopped at ${countedText(counted, state.sources)} source packets per k.`
                        : curve.status === 'done'
                          ? `Done: ${state.sources.toLocaleString('en')} source packets per k`
                          : ''}
                    {curve.packetsPerSecond > 0 &&
                      ` · ${Math.round(curve.packetsPerSecond).toLocaleString('en')} packets/s through encoder, channel and decoder, in ${workersText(curve.workers)}`}
                  </p>
                  {curve.status === 'computing' && (
                    <button type="button" onClick={curve.stop}>
                      Stop
                    </button>
                  )}
                </div>
                <ResidualChart points={curve.points} z={state.z} sources={state.sources} />
                {counted.most > 0 && (
                  <p className="convergence-note">
                    {convergenceNote(curve.points, curve.status !== 'computing')}{' '}
                    {samplingNote(curve.workers, 'seed' in request.channel ? request.channel.seed : undefined)}
                  </p>
                )}
              </section>
            </div>
            <section className="panel" aria-labelledby={`${id}-table`}>
              <h2 id={`${id}-table`}>Residual loss, in numbers</h2>
              <ResultsTable points={curve.points} z={state.z} />
            </section>
          </>
        )}
      </div>
    </div>
  );
}

const workersText = (workers: number) => (workers === 1 ? 'a Web Worker' : `${workers} Web Workers`);

/** countedText says how many sources per k are counted: "12,500 of 50,000", or "0–312,500 of …" while the ks differ. */
function countedText({ least, most }: { least: number; most: number }, sources: number): string {
  const low = Number.isFinite(least) ? least : 0;
  const range = low === most ? low.toLocaleString('en') : `${low.toLocaleString('en')}–${most.toLocaleString('en')}`;
  return `${range} of ${sources.toLocaleString('en')}`;
}

function ResultsTable({ points, z }: { points: ResidualPoint[]; z: number }) {
  const headers: [string, string][] = [
    ['Overhead', channelGlossary.overhead],
    ['Channel loss', channelGlossary.channelLoss],
    ['Residual loss', channelGlossary.residualLoss],
    ['95 % interval', channelGlossary.interval],
    ['Sources', channelGlossary.sources],
  ];
  return (
    <div className="table-scroll">
      <table className="results">
        <caption className="visually-hidden">Residual loss after S(k,{z}) for each k</caption>
        <thead>
          <tr>
            <th scope="col">Code</th>
            {headers.map(([header, help]) => (
              <th scope="col" key={header}>
                {header} <HelpTip term={header} text={help} />
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {points.map((point) => {
            const estimate = residualEstimate(point);
            return (
              <tr key={point.k} className={studiedKs.includes(point.k) && z === 100 ? 'studied' : undefined}>
                <th scope="row">
                  S({point.k},{z})
                </th>
                <td>{formatPercent(1 / (point.k + 1))}</td>
                <td>{point.packets === 0 ? '–' : formatPercent(point.packetsLost / point.packets)}</td>
                <td>{point.sources === 0 ? '–' : formatPercent(estimate.residualLoss)}</td>
                <td>{point.sources === 0 ? '–' : `${formatPercent(estimate.lower)} – ${formatPercent(estimate.upper)}`}</td>
                <td>{point.sources.toLocaleString('en')}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
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
