import { describe, expect, it } from 'vitest';
import { inlineStyle } from './figure-svg';

const styleOf = (values: Record<string, string>) => (property: string) => values[property] ?? '';

describe('inlineStyle', () => {
  const root = { fill: 'rgb(0, 0, 0)', 'font-family': 'Inter, sans-serif', 'font-size': '14px', 'font-weight': '400', opacity: '1' };

  it('states the root’s fonts, which a standalone file cannot inherit, and nothing at its initial value', () => {
    expect(inlineStyle(styleOf(root), null)).toEqual([
      ['font-family', 'Inter, sans-serif'],
      ['font-size', '14px'],
    ]);
  });

  it('states what differs from what an element inherits, and a non-inherited property that differs from its initial value', () => {
    const text = { ...root, fill: 'rgb(20, 33, 43)', 'font-weight': '600', 'text-anchor': 'middle', opacity: '0.7' };
    expect(inlineStyle(styleOf(text), styleOf(root))).toEqual([
      ['fill', 'rgb(20, 33, 43)'],
      ['font-weight', '600'],
      ['text-anchor', 'middle'],
      ['opacity', '0.7'],
    ]);
  });

  it('states an inherited property set back to its initial value under a parent that changed it', () => {
    const parent = { ...root, stroke: 'rgb(198, 40, 40)' };
    const child = { ...root, stroke: 'none' };
    expect(inlineStyle(styleOf(child), styleOf(parent))).toEqual([['stroke', 'none']]);
  });
});
