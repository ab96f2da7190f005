/** What a number field accepts: its range, and whether only whole numbers. */
export interface NumberLimit {
  min?: number;
  max?: number;
  integer?: boolean;
}

const range = ({ min, max }: NumberLimit) =>
  min !== undefined && max !== undefined
    ? `from ${min} to ${max}`
    : min !== undefined
      ? `of at least ${min}`
      : max !== undefined
        ? `of at most ${max}`
        : '';

/**
 * numberProblem says what is wrong with the text of a number field, in a sentence that names the
 * field and what it accepts, or null when the text is a number it accepts (the value it shows is
 * then the value a form sends).
 */
export function numberProblem(text: string, label: string, limit: NumberLimit): string | null {
  const value = Number(text);
  const valid =
    text.trim() !== '' &&
    Number.isFinite(value) &&
    (!limit.integer || Number.isInteger(value)) &&
    (limit.min === undefined || value >= limit.min) &&
    (limit.max === undefined || value <= limit.max);
  if (valid) return null;
  const wanted = [limit.integer ? 'a whole number' : 'a number', range(limit)].filter(Boolean).join(' ');
  return text.trim() === '' ? `${label} needs ${wanted}.` : `${label} takes ${wanted}, not ${text.trim()}.`;
}
