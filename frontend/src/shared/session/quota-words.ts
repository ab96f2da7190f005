/**
 * A limit's value in words and units, as a person reads it: 50 MB, not 50000000; yes or no, not
 * 1 or 0. The unit comes from the limit's name (its suffix, as every satlab name carries one).
 */
export function limitValueInWords(name: string, value: number): string {
  if (name === 'student_campaigns') return value > 0 ? 'yes' : 'no';
  const whole = value.toLocaleString('en');
  if (name.endsWith('_bytes')) {
    if (value >= 1e9) return `${Number((value / 1e9).toPrecision(4))} GB (${whole} bytes)`;
    if (value >= 1e6) return `${Number((value / 1e6).toPrecision(4))} MB (${whole} bytes)`;
    if (value >= 1e3) return `${Number((value / 1e3).toPrecision(4))} kB (${whole} bytes)`;
    return `${whole} bytes`;
  }
  if (name.endsWith('_s')) return `${whole} s`;
  if (name.endsWith('_mbps')) return `${whole} Mbit/s`;
  if (name.endsWith('_days')) return `${whole} day${value === 1 ? '' : 's'}`;
  if (name.endsWith('_chars')) return `${whole} characters`;
  return whole;
}

/** The name of a limit in words: its description, capitalised, without the 1-or-0 a yes-or-no one explains itself by. */
export function limitNameInWords(name: string, description: string): string {
  const words = name === 'student_campaigns' ? 'Students may start campaigns' : description;
  return words.charAt(0).toUpperCase() + words.slice(1);
}
