/**
 * The ticks of an axis, computed from its D3 scale (visx's Axis does the same): a chart hands its
 * scale to an axis and its grid, and neither repeats tick code.
 */

/** A D3 scale an axis can draw: continuous (linear, log: ticks of its own) or band (a tick per band). */
export type AxisScale = ContinuousScale | BandScale;

export interface ContinuousScale {
  (value: number): number;
  domain(): number[];
  range(): number[];
  ticks(count?: number): number[];
  tickFormat(count?: number): (value: number) => string;
}

export interface BandScale {
  (value: string): number | undefined;
  domain(): string[];
  range(): number[];
  bandwidth(): number;
}

export interface TickOptions {
  /** About how many ticks a continuous scale gives (d3's ticks(count)); its own default when absent. */
  numTicks?: number;
  /** The ticks to draw, instead of the scale's own: decades on a log scale. */
  tickValues?: readonly (number | string)[];
  /** A tick's label; by default the scale's tickFormat for numbers, the band's key for bands. */
  tickFormat?: (value: never) => string;
  /** Only whole-number ticks (counts, k): d3 gives 0.5 steps on a short domain. */
  wholeNumbers?: boolean;
}

export interface Tick {
  /** Where the tick is along the axis, in pixels. */
  position: number;
  label: string;
  /** The value it marks, for React keys. */
  value: number | string;
}

const isBand = (scale: AxisScale): scale is BandScale => 'bandwidth' in scale;

/** axisTicks gives the ticks of an axis on scale: positions in pixels (a band's centre), values and labels. */
export function axisTicks(scale: AxisScale, { numTicks, tickValues, tickFormat, wholeNumbers = false }: TickOptions = {}): Tick[] {
  if (isBand(scale)) {
    const format = (tickFormat as ((value: string) => string) | undefined) ?? String;
    const half = scale.bandwidth() / 2;
    return ((tickValues as string[] | undefined) ?? scale.domain()).map((value) => ({
      value,
      position: (scale(value) ?? 0) + half,
      label: format(value),
    }));
  }
  const values = ((tickValues as number[] | undefined) ?? scale.ticks(numTicks)).filter(
    (value) => !wholeNumbers || Number.isInteger(value),
  );
  const format = (tickFormat as ((value: number) => string) | undefined) ?? scale.tickFormat(numTicks);
  return values.map((value) => ({ value, position: scale(value), label: format(value) }));
}

/** decades are the powers of ten within a log scale's domain: its ticks, without the 2…9 between them. */
export function decades(scale: ContinuousScale): number[] {
  return scale.ticks().filter((tick) => Math.abs(Math.log10(tick) % 1) < 1e-9);
}
