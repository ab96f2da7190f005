import { memo, useId, useMemo, useState } from 'react';
import { Measure } from '../../../components/help';
import { NumberField } from '../../../components/form';
import type { ChannelConfig, Codec } from '../../../lib/codec';
import {
  type ChannelStats,
  type StatsStream,
  burstBinLabels,
  measureStats,
  nativeCommand,
  statsLimits,
  streamPackets,
} from '../logic/channel-stats';

export interface ChannelStatsPanelProps {
  /** The loaded WebAssembly codec. */
  codec: Codec;
  /** The lab's channel, seed included. */
  channel: ChannelConfig;
}

const help = {
  timeLost: 'The share of the duration during which a packet sent would be lost: the channel state over time, not a sample of it.',
  packetsLost: 'Packets of the constant-rate stream the channel lost, each decided when it is sent, as satlink decides.',
  bursts: 'Maximal runs of loss: in time for the models that decide by time, in packets of the stream for the per-packet models.',
  burstLength: 'The shortest, mean and longest burst.',
};

/** The three stream fields side by side. */
const streamFormStyle = { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(12rem, 1fr))', gap: '0 1rem' };

const defaultStream: StatsStream = { durationS: 60, rateMbps: 10, packetBytes: 1400 };

/** The stream's packet count, refused beyond what the page measures in reasonable time. */
function packetProblem(stream: StatsStream): string | undefined {
  const packets = streamPackets(stream);
  return packets > statsLimits.packets
    ? `This stream sends ${Math.round(packets).toLocaleString('en')} packets; at most ${statsLimits.packets.toLocaleString('en')} are measured: lower the rate or the duration.`
    : undefined;
}

/**
 * ChannelStatsPanel shows what libswf's own model of the lab's channel does over a duration, computed in
 * the browser by the WebAssembly build: the same figures as the native `swf-channel stats` (and
 * `satlab channel stats`) for the same channel, seed and stream. Memoised: a keystroke elsewhere in
 * the lab does not redraw it.
 */
function ChannelStatsPanelView({ codec, channel }: ChannelStatsPanelProps) {
  const id = useId();
  const [stream, setStream] = useState(defaultStream);
  const problem = packetProblem(stream);
  const result = useMemo<{ stats?: ChannelStats; error?: string }>(() => {
    if (problem) return {};
    try {
      return { stats: measureStats(codec, channel, stream) };
    } catch (error) {
      return { error: (error as Error).message };
    }
  }, [codec, channel, stream, problem]);
  const command = nativeCommand(channel, stream);

  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Channel statistics</h2>
      <form aria-label="Statistics stream" style={streamFormStyle} onSubmit={(event) => event.preventDefault()}>
        <NumberField
          label="Duration (s)"
          value={stream.durationS}
          {...statsLimits.durationS}
          onChange={(durationS) => setStream({ ...stream, durationS })}
        />
        <NumberField
          label="Stream rate (Mbit/s)"
          value={stream.rateMbps}
          {...statsLimits.rateMbps}
          onChange={(rateMbps) => setStream({ ...stream, rateMbps })}
          problems={problem ? [problem] : []}
        />
        <NumberField
          label="Packet size (bytes)"
          step={1}
          value={stream.packetBytes}
          {...statsLimits.packetBytes}
          onChange={(packetBytes) => setStream({ ...stream, packetBytes })}
        />
      </form>
      {result.error && (
        <p className="error" role="alert">
          {result.error}
        </p>
      )}
      {result.stats && <Figures stats={result.stats} stream={stream} />}
      {command && (
        <p className="hint">
          The same figures natively: <code>{command}</code>
        </p>
      )}
    </section>
  );
}

function Figures({ stats, stream }: { stats: ChannelStats; stream: StatsStream }) {
  const unit = stats.burstUnit;
  const labels = burstBinLabels(stats);
  const percent = (ratio: number) => `${(100 * ratio).toFixed(3)} %`;
  return (
    <>
      <dl className="counters">
        <Measure
          label="Time lost"
          value={stats.timeLostRatio === null ? 'not defined: per-packet model' : `${percent(stats.timeLostRatio)} (${(stats.lostUs / 1000).toLocaleString('en')} ms)`}
          help={help.timeLost}
        />
        <Measure
          label="Stream packets lost"
          value={`${stats.packetsLost.toLocaleString('en')} of ${stats.packets.toLocaleString('en')} (${percent(stats.packetLossRatio)})`}
          help={help.packetsLost}
        />
        <Measure label="Loss bursts" value={stats.bursts.toLocaleString('en')} help={help.bursts} />
        <Measure
          label="Burst length: min / mean / max"
          value={stats.bursts === 0 ? '–' : `${stats.burstMin} / ${Number(stats.burstMean.toPrecision(4))} / ${stats.burstMax} ${unit}`}
          help={help.burstLength}
        />
      </dl>
      {stats.bursts > 0 && (
        <table className="results">
          <caption>
            Bursts by length over {stream.durationS} s (bins of {stats.burstBinWidth} {unit === 'ms' ? 'ms' : 'packet'})
          </caption>
          <thead>
            <tr>
              <th scope="col">Length</th>
              <th scope="col">Bursts</th>
            </tr>
          </thead>
          <tbody>
            {stats.burstHistogram.map((count, bin) =>
              count === 0 ? null : (
                <tr key={labels[bin]}>
                  <th scope="row">{labels[bin]}</th>
                  <td>{count.toLocaleString('en')}</td>
                </tr>
              ),
            )}
          </tbody>
        </table>
      )}
    </>
  );
}

export const ChannelStatsPanel = memo(ChannelStatsPanelView);
