import { describe, expect, it } from 'vitest';
import { numberProblem } from './number-problem';

describe('numberProblem', () => {
  const size = { min: 1, max: 10737418240, integer: true };

  it('accepts a number inside the range', () => {
    expect(numberProblem('2000000', 'Size, bytes', size)).toBeNull();
    expect(numberProblem('10737418240', 'Size, bytes', size)).toBeNull();
  });

  it('names the field and its range for what the issue typed: -5, 0, 11811160064', () => {
    for (const text of ['-5', '0', '11811160064']) {
      expect(numberProblem(text, 'Size, bytes', size)).toBe(`Size, bytes takes a whole number from 1 to 10737418240, not ${text}.`);
    }
    expect(numberProblem('20', 'Concurrent flows', { min: 1, max: 16, integer: true })).toBe(
      'Concurrent flows takes a whole number from 1 to 16, not 20.',
    );
  });

  it('refuses fractions where only whole numbers go, blanks and words', () => {
    expect(numberProblem('1.5', 'Iterations', { min: 1, integer: true })).toBe('Iterations takes a whole number of at least 1, not 1.5.');
    expect(numberProblem(' ', 'Seed', { min: 0, max: 4294967295, integer: true })).toBe('Seed needs a whole number from 0 to 4294967295.');
    expect(numberProblem('abc', 'Loss', { max: 1 })).toBe('Loss takes a number of at most 1, not abc.');
  });
});
