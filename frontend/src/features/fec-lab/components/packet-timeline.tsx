import { group, scaleBand } from 'd3';
import { useEffect, useId, useMemo, useRef } from 'react';
import { ChartExport, useFigureDrawing } from '../../../components/charts';
import type { FecRunView, RepairPacket } from '../logic/fec-run';
import { timelineTable } from '../logic/timeline-figure';
import { windowLanes } from '../logic/window-lanes';

export interface PacketTimelineProps {
  /** The run to draw; the slots of the packets still to come are drawn empty. */
  view: FecRunView;
  /** The code, the channel and its seed, how far the run went: its figure's caption (timelineSource). */
  source: string;
  /** The marks' legend, [class, what it is], as the page's legend lists them: drawn in the figure. */
  legend: [string, string][];
}

const cellWidth = 34;
const rows = { sent: 6, channel: 44, receiver: 74, rebuilt: 104, windows: 146 };
const rowLabels: [keyof typeof rows, string][] = [
  ['sent', 'Sent'],
  ['channel', 'Channel'],
  ['receiver', 'Receiver'],
  ['rebuilt', 'Rebuilt'],
  ['windows', 'Repair windows'],
];
const laneHeight = 18;
/** Room in a figure for the row labels, which on the page stick to the scroll box's left in HTML. */
const figureLabelsWidth = 136;
/** Room for a window's label, "R12 [30,41]", at the chart's 14 px. */
const labelWidth = (label: string) => 8 + label.length * 8.5;


/**
 * PacketTimeline draws the run on one time line, a column per packet: what the sender sent (sources
 * white, repairs grey), what the channel dropped, what the receiver holds, when each lost source was
 * rebuilt, and below, the window [i, j] of sources each repair covers.
 */
export function PacketTimeline(props: PacketTimelineProps) {
  const { view, source, legend } = props;
  const { plannedPackets } = view;
  // Drawn for a figure: the row labels in the SVG, no highlight of the latest packet.
  const drawing = useFigureDrawing() !== null;
  const labelsWidth = drawing ? figureLabelsWidth : 0;
  const titleId = useId();
  const scroller = useRef<HTMLDivElement>(null);
  const labels = useRef<HTMLDivElement>(null);
  const x = useMemo(
    () => scaleBand<number>().domain(Array.from({ length: plannedPackets }, (_, index) => index)).range([0, plannedPackets * cellWidth]).padding(0.12),
    [plannedPackets],
  );
  const band = x.bandwidth();
  const centre = (index: number) => (x(index) ?? 0) + band / 2;
  const repairs = view.packets.filter((packet): packet is RepairPacket => packet.kind === 'repair');
  const sourceX = (esi: number) => x(view.sources[esi]?.sentAt ?? 0) ?? 0;
  const windowLabel = (repair: RepairPacket) => `${repair.label} [${repair.id.firstEsi},${repair.id.firstEsi + repair.id.nss - 1}]`;
  const lanes = windowLanes(
    repairs.map((repair) => ({ start: sourceX(repair.id.firstEsi), end: centre(repair.index) + labelWidth(windowLabel(repair)) })),
  );
  const height = rows.windows + (Math.max(0, ...lanes) + 1) * laneHeight + 8;
  // Room on the right for the last repair's window label.
  const width = plannedPackets * cellWidth + 130;
  const latest = view.packets.length - 1;
  const rebuiltByMoment = group(
    view.sources.filter((source) => source.rebuiltAt !== undefined),
    (source) => source.rebuiltAt ?? 0,
  );

  // Stepping or playing, keep the latest packet in view, with a few slots to come after it. When
  // many packets go at once (Run to end), keep the view where the run's events are: on the first
  // packet lost among them, or where it was if none was lost; the end of the run has no more to
  // show than its middle. The row labels stick to the left of the scroll box and hide what is under them.
  const shownLatest = useRef(latest);
  const packets = view.packets;
  useEffect(() => {
    const element = scroller.current;
    const previous = shownLatest.current;
    shownLatest.current = latest;
    if (!element) return;
    const visible = element.clientWidth - (labels.current?.offsetWidth ?? 0);
    if (latest <= 0 || latest < previous) {
      element.scrollLeft = 0;
      return;
    }
    const jumped = latest > previous + 1;
    const target = jumped ? packets.find((packet) => packet.index > previous && packet.lost)?.index : latest;
    if (target === undefined) return;
    const left = x(target) ?? 0;
    const right = left + cellWidth * 3;
    if (left < element.scrollLeft || right > element.scrollLeft + visible) {
      element.scrollLeft = jumped ? Math.max(0, left - cellWidth * 2) : Math.max(0, right - visible);
    }
  }, [latest, x, packets]);

  const lost = view.packets.filter((packet) => packet.lost).length;
  return (
    <>
      <div className="chart-toolbar">
        <ChartExport
          figure={{
            title: 'Time line of the packets',
            source,
            legend: [
              ...legend.map(([className, label]) => ({ label, kind: 'area' as const, like: `.${className}` })),
              { label: 'Repair window [first, last ESI]', kind: 'line', like: '.window:not(.window-lost) line' },
            ],
            table: () => timelineTable(view),
          }}
          redraw={() => <PacketTimeline {...props} />}
        />
      </div>
      <div className="timeline-scroll" ref={scroller} tabIndex={0} aria-labelledby={titleId}>
        <div className="timeline">
          <div className="timeline-labels" ref={labels} aria-hidden="true" style={{ height }}>
            {rowLabels.map(([row, label]) => (
              <span key={row} style={{ top: rows[row] + 4 }}>
                {label}
              </span>
            ))}
          </div>
          <svg width={width + labelsWidth} height={height} role="img" aria-labelledby={titleId}>
            <title id={titleId}>
              {`Time line: ${view.packets.length} of ${plannedPackets} packets sent, ${lost} lost by the channel, ` +
                `${view.sources.filter((source) => source.state === 'rebuilt').length} sources rebuilt.`}
            </title>
            {drawing &&
              rowLabels.map(([row, label]) => (
                <text key={row} x={4} y={rows[row] + 19} fontSize={14} fontWeight={600} fill="currentColor">
                  {label}
                </text>
              ))}
            <g transform={drawing ? `translate(${labelsWidth},0)` : undefined}>
              {!drawing && latest >= 0 && <rect className="current-column" x={(x(latest) ?? 0) - 2} y={0} width={band + 4} height={height} />}
              {Array.from({ length: plannedPackets }, (_, index) => {
                const packet = view.packets[index];
                const left = x(index) ?? 0;
                if (!packet) return <rect key={index} className="slot-pending" x={left} y={rows.sent} width={band} height={28} rx={3} />;
                return (
                  <g key={index}>
                    <rect className={`packet packet-${packet.kind}`} x={left} y={rows.sent} width={band} height={28} rx={3} />
                    <text className="packet-label" x={centre(index)} y={rows.sent + 19}>
                      {packet.kind === 'source' ? packet.esi : packet.label}
                    </text>
                    {packet.lost && (
                      <text className="loss-mark" x={centre(index)} y={rows.channel + 18}>
                        ✕
                      </text>
                    )}
                  </g>
                );
              })}
              {view.sources.map((source) => (
                <rect
                  key={source.esi}
                  className={`receiver-${source.state}`}
                  x={x(source.sentAt) ?? 0}
                  y={rows.receiver}
                  width={band}
                  height={20}
                  rx={3}
                />
              ))}
              {[...rebuiltByMoment].map(([moment, sources]) => (
                <g key={moment} className="rebuild-moment">
                  {sources.map((source) => (
                    <path
                      key={source.esi}
                      d={`M${centre(moment)},${rows.rebuilt + 4} C${centre(moment)},${rows.receiver + 34} ${centre(source.sentAt)},${rows.rebuilt} ${centre(source.sentAt)},${rows.receiver + 20}`}
                    />
                  ))}
                  <text x={centre(moment)} y={rows.rebuilt + 20}>
                    ↻ {sources.map((source) => source.esi).join(',')}
                  </text>
                </g>
              ))}
              {repairs.map((repair, index) => {
                const y = rows.windows + lanes[index] * laneHeight + laneHeight / 2;
                const first = repair.id.firstEsi;
                const last = first + repair.id.nss - 1;
                const start = sourceX(first);
                const end = sourceX(last) + band;
                return (
                  <g key={repair.index} className={repair.lost ? 'window window-lost' : 'window'}>
                    <line x1={start} x2={end} y1={y} y2={y} />
                    <line x1={end} x2={centre(repair.index)} y1={y} y2={y} className="window-link" />
                    <circle cx={centre(repair.index)} cy={y} r={3.5} />
                    <text x={centre(repair.index) + 8} y={y + 5}>
                      {windowLabel(repair)}
                    </text>
                  </g>
                );
              })}
            </g>
          </svg>
        </div>
      </div>
    </>
  );
}
