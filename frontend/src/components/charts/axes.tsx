import { type AxisScale, type TickOptions, axisTicks } from './axis-ticks';

export interface AxisProps extends TickOptions {
  /** The D3 scale the axis shows: its range is the axis line's extent, its ticks are the axis's. */
  scale: AxisScale;
  /** Where the axis line sits: the y of a bottom or top axis, the x of a left axis. */
  offset: number;
  /** The axis title, with its unit; none for an axis whose labels say it all. */
  title?: string;
  /** How far from the axis line the title sits, in pixels: clear of the widest tick label. */
  titleOffset?: number;
  /** Draws the labels only: no axis line, no tick marks. */
  labelsOnly?: boolean;
  /** The tick labels' class: "tick-label" for the quieter labels of a raster. */
  labelClassName?: string;
}

type Orientation = 'top' | 'bottom' | 'left';

/** How each orientation lays out its line, ticks, labels and title (a left axis swaps x and y). */
const layouts = {
  bottom: { tickLength: 6, label: { y: 20 }, titleOffset: 42 },
  top: { tickLength: -6, label: { y: -8 }, titleOffset: -30 },
  left: { tickLength: -6, label: { x: -10, dy: '0.32em' }, titleOffset: -58 },
} as const;

/**
 * Axis draws an axis of a D3 scale (visx's Axis): the line along its range, a tick and a label at
 * each of its ticks (axisTicks), and a title; horizontal at y = offset, or vertical at x = offset.
 */
function Axis({
  orientation,
  scale,
  offset,
  title,
  titleOffset,
  labelsOnly = false,
  labelClassName,
  ...tickOptions
}: AxisProps & { orientation: Orientation }) {
  const layout = layouts[orientation];
  const vertical = orientation === 'left';
  const range = scale.range();
  const [start, end] = [range[0], range[range.length - 1]];
  const middle = (start + end) / 2;
  // Given as a distance; drawn on the side of the ticks.
  const titleAt = titleOffset === undefined ? layout.titleOffset : Math.sign(layout.titleOffset) * titleOffset;
  const along = (position: number) => (vertical ? `translate(0,${position})` : `translate(${position},0)`);
  return (
    <g className="axis" transform={vertical ? `translate(${offset},0)` : `translate(0,${offset})`}>
      {!labelsOnly && (vertical ? <line y1={start} y2={end} /> : <line x1={start} x2={end} />)}
      {axisTicks(scale, tickOptions).map((tick) => (
        <g key={tick.value} transform={along(tick.position)}>
          {!labelsOnly && (vertical ? <line x2={layout.tickLength} /> : <line y2={layout.tickLength} />)}
          <text className={labelClassName} textAnchor={vertical ? 'end' : 'middle'} {...layout.label}>
            {tick.label}
          </text>
        </g>
      ))}
      {title && (
        <text
          className="axis-title"
          textAnchor="middle"
          {...(vertical ? { transform: `translate(${titleAt},${middle}) rotate(-90)` } : { x: middle, y: titleAt })}
        >
          {title}
        </text>
      )}
    </g>
  );
}

/** AxisBottom draws a horizontal axis of scale with ticks below it and a title. */
export const AxisBottom = (props: AxisProps) => <Axis orientation="bottom" {...props} />;

/** AxisTop draws a horizontal axis of scale with ticks above it (a raster's time across its rows). */
export const AxisTop = (props: AxisProps) => <Axis orientation="top" {...props} />;

/** AxisLeft draws a vertical axis of scale with ticks to its left and a rotated title. */
export const AxisLeft = (props: AxisProps) => <Axis orientation="left" {...props} />;
