/**
 * formatPercent writes a fraction as a percentage with three significant digits: 0.00287 is
 * "0.287 %", 1.2e-4 is "0.012 %". The lab writes every loss this one way, axes included.
 */
export function formatPercent(fraction: number): string {
  return fraction === 0 ? '0 %' : `${Number((fraction * 100).toPrecision(3))} %`;
}

/** formatCount writes a count with thousands separators and its unit, singular for 1: "84 packets". */
export function formatCount(count: number, unit: string): string {
  const value = Number(count.toPrecision(3)) === Math.round(count) ? Math.round(count) : Number(count.toPrecision(3));
  return `${value.toLocaleString('en')} ${unit}${value === 1 ? '' : 's'}`;
}
