import { useId, useMemo } from 'react';
import { Measure } from '../../../components/measure';
import { NumberField } from '../../../components/number-field';
import {
  ChannelFields,
  channelKindLabels,
  channelPresets,
  defaultChannelParams,
  toChannelConfig,
} from '../../../lib/channel';
import type { Codec } from '../../../lib/codec';
import { useUrlState } from '../../../lib/url-state';
import { useResidualCurve } from '../hooks/use-residual-curve';
import { type BurstBin, burstHistogram, lossRate, sampleLosses } from '../logic/loss-pattern';
import { type ResidualCurveRequest, parseKs } from '../logic/residual-curve';
import { BurstHistogram } from './burst-histogram';
import { ChannelStatsPanel } from './channel-stats';
import { LossRaster } from './loss-raster';
import { ResidualChart, formatFraction } from './residual-chart';

export interface ChannelLabProps {
  /** The loaded WebAssembly codec. */
  codec: Codec;
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

type CurveSettings = Omit<typeof defaults, 'packets' | 'rowPackets'>;

interface LossPattern {
  lost: Uint8Array;
  bins: BurstBin[];
  rate: number;
}

const choices = { kind: Object.keys(channelKindLabels) };
const page = { lab: 'channel' };
/** The redundancy settings of the studies behind satlab, marked in the results. */
const studiedKs = [2, 5, 10];

/**
 * ChannelLab shows what a channel model does to a packet stream: losses over time, burst lengths,
 * the measured loss rate, and the residual loss after S(k,z) for a range of k, by Monte-Carlo with
 * the WebAssembly codec.
 */
export function ChannelLab({ codec }: ChannelLabProps) {
  const [state, update] = useUrlState(defaults, choices, page);
  const id = useId();
  // The Monte-Carlo reruns when a setting it depends on changes: not for the sample or the raster.
  const { packets, rowPackets, ...curveSettings } = state;
  const curveKey = JSON.stringify(curveSettings);
  const prepared = useMemo(() => prepare(JSON.parse(curveKey) as CurveSettings), [curveKey]);

  const pattern = useMemo<LossPattern | { error: string } | undefined>(() => {
    if (!prepared.request) return undefined;
    try {
      const lost = sampleLosses(codec, prepared.request.channel, prepared.request.packetMs, packets);
      return { lost, bins: burstHistogram(lost), rate: lossRate(lost) };
    } catch (error) {
      return { error: (error as Error).message };
    }
  }, [codec, prepared, packets]);
  const curve = useResidualCurve(codec, pattern && 'error' in pattern ? undefined : prepared.request);
  const error = prepared.error ?? (pattern && 'error' in pattern ? pattern.error : undefined) ?? curve.error;
  const bursts = pattern && 'bins' in pattern ? pattern.bins : [];
  const burstCount = bursts.reduce((total, bin) => total + bin.count, 0);
  const meanBurst = burstCount === 0 ? 0 : bursts.reduce((total, bin) => total + bin.length * bin.count, 0) / burstCount;

  return (
    <div className="lab">
      <form className="lab-settings" aria-label="Channel lab settings" onSubmit={(event) => event.preventDefault()}>
        <ChannelFields params={state} onChange={update} />
        <fieldset>
          <legend>Sample</legend>
          <NumberField label="Packets drawn" min={100} max={1_000_000} step={1000} value={packets} onChange={(value) => update({ packets: value })} />
          <NumberField
            label="Packets per row"
            min={10}
            max={100_000}
            step={10}
            value={rowPackets}
            onChange={(value) => update({ rowPackets: value })}
            hint="Rows as long as an outage period line its outages up."
          />
        </fieldset>
        <fieldset>
          <legend>Monte-Carlo of S(k,z)</legend>
          <NumberField label="z, window size" min={1} max={4095} step={1} value={state.z} onChange={(z) => update({ z })} />
          <div className="field">
            <label htmlFor={`${id}-ks`}>Values of k</label>
            <input id={`${id}-ks`} value={state.ks} onChange={(event) => update({ ks: event.target.value })} aria-describedby={`${id}-ks-hint`} />
            <small id={`${id}-ks-hint`} className="hint">
              A list like 1,2,5-8
            </small>
          </div>
          <NumberField
            label="Source packets per k"
            min={100}
            max={10_000_000}
            step={10000}
            value={state.sources}
            onChange={(sources) => update({ sources })}
          />
        </fieldset>
      </form>
      <div className="lab-stage">
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        {pattern && 'lost' in pattern && (
          <>
            <section className="panel" aria-labelledby={`${id}-pattern`}>
              <h2 id={`${id}-pattern`}>Losses over time</h2>
              <dl className="counters">
                <Measure label="Measured loss" value={formatFraction(pattern.rate)} />
                <Measure label="Packets drawn" value={pattern.lost.length.toLocaleString('en')} />
                <Measure label="Bursts" value={burstCount.toLocaleString('en')} />
                <Measure label="Mean burst" value={`${meanBurst.toFixed(1)} packets`} />
                <Measure label="Packet spacing" value={`${state.packetMs} ms`} />
              </dl>
              <LossRaster lost={pattern.lost} packetMs={state.packetMs} packetsPerRow={rowPackets} />
            </section>
            {prepared.request && <ChannelStatsPanel codec={codec} channel={prepared.request.channel} />}
            <div className="panel-row">
              <section className="panel" aria-labelledby={`${id}-bursts`}>
                <h2 id={`${id}-bursts`}>Burst lengths</h2>
                <BurstHistogram bins={bursts} />
              </section>
              <section className="panel" aria-labelledby={`${id}-residual`}>
                <h2 id={`${id}-residual`}>Residual loss after S(k,{state.z})</h2>
                {prepared.request && (
                  <ResidualChart points={curve.points} ks={prepared.request.ks} z={state.z} sources={state.sources} />
                )}
                <p className="muted" role="status">
                  {curve.running
                    ? `Computing… ${curve.points.length} of ${prepared.request?.ks.length ?? 0} values of k`
                    : `Done: ${curve.points.length} values of k`}
                  {curve.packetsPerSecond > 0 &&
                    ` · ${Math.round(curve.packetsPerSecond).toLocaleString('en')} packets/s through encoder, channel and decoder`}
                </p>
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

function ResultsTable({ points, z }: { points: ReturnType<typeof useResidualCurve>['points']; z: number }) {
  return (
    <div className="table-scroll">
      <table className="results">
        <caption className="visually-hidden">Residual loss after S(k,{z}) for each k</caption>
        <thead>
          <tr>
            <th scope="col">Code</th>
            <th scope="col">Overhead</th>
            <th scope="col">Channel loss</th>
            <th scope="col">Residual loss</th>
            <th scope="col">Sources</th>
          </tr>
        </thead>
        <tbody>
          {points.map((point) => (
            <tr key={point.k} className={studiedKs.includes(point.k) && z === 100 ? 'studied' : undefined}>
              <th scope="row">
                S({point.k},{z})
              </th>
              <td>{formatFraction(1 / (point.k + 1))}</td>
              <td>{formatFraction(point.channelLoss)}</td>
              <td>{formatFraction(point.residualLoss)}</td>
              <td>{point.sources.toLocaleString('en')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** prepare turns the lab's settings into a Monte-Carlo request, or says why it cannot. */
function prepare(settings: CurveSettings): { request?: ResidualCurveRequest; error?: string } {
  try {
    return {
      request: {
        channel: toChannelConfig(settings),
        packetMs: settings.packetMs,
        z: settings.z,
        ks: parseKs(settings.ks),
        sources: settings.sources,
      },
    };
  } catch (error) {
    return { error: (error as Error).message };
  }
}
