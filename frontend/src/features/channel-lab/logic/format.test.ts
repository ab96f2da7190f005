import { describe, expect, it } from 'vitest';
import { formatCount, formatPercent } from './format';

describe('formatPercent', () => {
  it('writes every loss as a percentage, small ones included: never scientific beside %', () => {
    expect(formatPercent(1)).toBe('100 %');
    expect(formatPercent(0.0624)).toBe('6.24 %');
    expect(formatPercent(0.00287)).toBe('0.287 %');
    expect(formatPercent(1.2e-4)).toBe('0.012 %');
    expect(formatPercent(1e-7)).toBe('0.00001 %');
    expect(formatPercent(0)).toBe('0 %');
  });
});

describe('formatCount', () => {
  it('drops the decimal of a whole mean: 84 packets, not 84.0 packets', () => {
    expect(formatCount(84, 'packet')).toBe('84 packets');
    expect(formatCount(3.25, 'packet')).toBe('3.25 packets');
    expect(formatCount(1, 'packet')).toBe('1 packet');
    expect(formatCount(20000, 'packet')).toBe('20,000 packets');
  });
});
