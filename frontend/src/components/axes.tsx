export interface AxisProps {
  /** Tick positions in pixels with their labels. */
  ticks: { position: number; label: string }[];
  /** Where the axis line sits: the y of a bottom axis, the x of a left axis. */
  offset: number;
  /** The axis line's extent along the axis, in pixels. */
  range: [number, number];
  /** The axis title. */
  title: string;
  /** How far from the axis line the title sits, in pixels: clear of the widest tick label. */
  titleOffset?: number;
}

/** AxisBottom draws a horizontal axis with ticks below it and a title. */
export function AxisBottom({ ticks, offset, range, title }: AxisProps) {
  return (
    <g className="axis" transform={`translate(0,${offset})`}>
      <line x1={range[0]} x2={range[1]} />
      {ticks.map((tick) => (
        <g key={tick.label} transform={`translate(${tick.position},0)`}>
          <line y2={6} />
          <text y={20} textAnchor="middle">
            {tick.label}
          </text>
        </g>
      ))}
      <text className="axis-title" x={(range[0] + range[1]) / 2} y={42} textAnchor="middle">
        {title}
      </text>
    </g>
  );
}

/** AxisLeft draws a vertical axis with ticks to its left and a rotated title. */
export function AxisLeft({ ticks, offset, range, title, titleOffset = 58 }: AxisProps) {
  return (
    <g className="axis" transform={`translate(${offset},0)`}>
      <line y1={range[0]} y2={range[1]} />
      {ticks.map((tick) => (
        <g key={tick.label} transform={`translate(0,${tick.position})`}>
          <line x2={-6} />
          <text x={-10} dy="0.32em" textAnchor="end">
            {tick.label}
          </text>
        </g>
      ))}
      <text className="axis-title" transform={`translate(${-titleOffset},${(range[0] + range[1]) / 2}) rotate(-90)`} textAnchor="middle">
        {title}
      </text>
    </g>
  );
}
