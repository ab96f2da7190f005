import { describe, expect, it } from 'vitest';
import type { DecoderState } from './decoder-state';
import { equationsSummary, lacksSomething, payloadVerdict } from './outcome';

describe('payloadVerdict', () => {
  const text = { kind: 'text', identical: false, sourceCount: 10 } as const;

  it('says nothing is missing before anything is sent, and does not warn', () => {
    const state = { ...text, sourcesSent: 0, finished: false, lacking: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] };
    expect(payloadVerdict(state)).toBe('Nothing is sent yet: press Step or Play to send the text.');
    expect(lacksSomething(state)).toBe(false);
  });

  it('does not warn while every source sent so far arrived', () => {
    const state = { ...text, sourcesSent: 3, finished: false, lacking: [3, 4, 5, 6, 7, 8, 9] };
    expect(payloadVerdict(state)).toBe('The receiver holds every source sent so far, 3 of 10.');
    expect(lacksSomething(state)).toBe(false);
  });

  it('names the sources lacked so far while repairs may come', () => {
    const state = { ...text, sourcesSent: 6, finished: false, lacking: [4, 6, 7, 8, 9] };
    expect(payloadVerdict(state)).toBe('The receiver lacks source 4 of those sent so far: a later repair may rebuild them (░ marks missing bytes).');
    expect(lacksSomething(state)).toBe(true);
  });

  it('does not say "yet" once the run is over: it names what stays lost', () => {
    const verdict = payloadVerdict({ ...text, sourcesSent: 10, finished: true, lacking: [4, 7] });
    expect(verdict).toBe('The run is over: the receiver lacks sources 4, 7, and no repair will come to rebuild them (░ marks missing bytes).');
    expect(verdict).not.toMatch(/yet/);
  });

  it('says when the receiver holds it all', () => {
    expect(payloadVerdict({ kind: 'image', identical: true, sourcesSent: 4, sourceCount: 4, finished: true, lacking: [] })).toBe(
      'The receiver holds the original image, byte for byte.',
    );
  });
});

describe('equationsSummary', () => {
  const state = (change: Partial<DecoderState>): DecoderState => ({
    stillMissing: [],
    givenUp: [],
    rebuilt: 0,
    equations: 0,
    solvable: 0,
    finished: false,
    ...change,
  });

  it('counts the equations still needed while repairs may come', () => {
    expect(equationsSummary(state({ stillMissing: [3, 4], equations: 1 }), 9)).toBe(
      '2 unknowns (3, 4), 1 independent equation over them, none naming a single one: 1 more equation needed to solve them all.',
    );
  });

  it('says every unknown stays lost after the last packet, not the unknowns less the equations', () => {
    const summary = equationsSummary(state({ stillMissing: [12, 13, 17, 18], equations: 2, finished: true }), 100);
    expect(summary).toBe(
      '4 unknowns (12, 13, 17, 18), 2 independent equations over them, none naming a single one: the run is over and no repair will come, so all 4 stay lost.',
    );
    expect(summary).not.toMatch(/more equation/);
  });

  it('states the give-up rule with the window the decoder holds', () => {
    expect(equationsSummary(state({ stillMissing: [40], givenUp: [3, 4], finished: true }), 9)).toBe(
      '1 unknown (40), no equation over it: the run is over and no repair will come, so it stays lost. 2 given up (3, 4). ' +
        'The decoder holds the last 32 ESIs (2 × z = 18, rounded up to a power of two) behind the newest it heard of: a lost source ' +
        "is given up, for good, once it hears of an ESI 32 or more past it (a source, or the end of a repair's window). " +
        'A source it never held (what first arrived after it was already 32 past it) is not given up: it stays missing.',
    );
  });
});
