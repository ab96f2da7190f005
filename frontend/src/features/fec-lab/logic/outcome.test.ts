import { describe, expect, it } from 'vitest';
import { equationsSummary, payloadVerdict } from './outcome';

describe('payloadVerdict', () => {
  it('waits for more while the run goes on', () => {
    expect(payloadVerdict({ kind: 'text', identical: false, finished: false, lacking: [4] })).toBe(
      'The receiver does not hold the whole text yet (░ marks missing bytes).',
    );
  });

  it('does not say "yet" once the run is over: it names what stays lost', () => {
    const verdict = payloadVerdict({ kind: 'text', identical: false, finished: true, lacking: [4, 7] });
    expect(verdict).toBe('The run is over: the receiver lacks sources 4, 7, and no repair will come to rebuild them (░ marks missing bytes).');
    expect(verdict).not.toMatch(/yet/);
  });

  it('says when the receiver holds it all', () => {
    expect(payloadVerdict({ kind: 'image', identical: true, finished: true, lacking: [] })).toBe(
      'The receiver holds the original image, byte for byte.',
    );
  });
});

describe('equationsSummary', () => {
  it('counts the equations still needed while repairs may come', () => {
    expect(equationsSummary({ unknowns: 2, equations: 1, givenUp: 0, finished: false })).toBe(
      '2 unknowns, 1 independent equation: 1 more needed to solve them all.',
    );
  });

  it('never asks for one more after the last packet', () => {
    const summary = equationsSummary({ unknowns: 1, equations: 0, givenUp: 1, finished: true });
    expect(summary).toBe(
      '1 unknown, 0 independent equations: the run is over, no repair will come, so 1 source stays lost. 1 given up (more than 2 × z ESIs behind the newest one).',
    );
    expect(summary).not.toMatch(/more needed/);
  });
});
