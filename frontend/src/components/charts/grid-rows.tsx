import { type ContinuousScale, type TickOptions, axisTicks } from './axis-ticks';

export interface GridRowsProps extends Pick<TickOptions, 'numTicks' | 'tickValues'> {
  /** The y scale whose ticks the lines follow: the same options as its axis give the same lines. */
  scale: ContinuousScale;
  /** The lines' horizontal extent, in pixels. */
  left: number;
  right: number;
}

/** GridRows draws a horizontal line across the plot at each tick of a y scale (visx's GridRows). */
export function GridRows({ scale, left, right, ...tickOptions }: GridRowsProps) {
  return axisTicks(scale, tickOptions).map((tick) => (
    <line key={tick.value} className="grid" x1={left} x2={right} y1={tick.position} y2={tick.position} />
  ));
}
