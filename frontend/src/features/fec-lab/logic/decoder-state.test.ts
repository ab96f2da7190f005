import { beforeAll, describe, expect, it } from 'vitest';
import type { ChannelConfig, Codec } from '../../../lib/codec';
import { loadTestCodec } from '../../../test/load-test-codec';
import { seededRandom } from '../../../test/seeded-random';
import { decoderState } from './decoder-state';
import { viewEquations } from './equations';
import { FecRun, type FecRunConfig, fecCounters } from './fec-run';
import { decoderWindowEsis, newestHeardEsi } from './give-up-rule';
import { equationsSummary } from './outcome';

let codec: Codec;
beforeAll(async () => {
  codec = await loadTestCodec();
});

const labText =
  'Sliding-window FEC over a geostationary link: every repair packet mixes the last z source packets, ' +
  'so a lost packet is rebuilt as soon as enough repairs arrive.';

function panelOf(run: FecRun) {
  const view = run.view();
  const matrix = viewEquations(view, (id) => codec.coefficients(id.repairKey, id.dt, id.nss));
  return { view, state: decoderState(view, matrix) };
}

/** The counts the panel's sentence states: its unknowns, and how many it says stay lost. */
function statedCounts(sentence: string) {
  const unknowns = /^(\d+) unknowns? /.exec(sentence)?.[1];
  const stay = /so (?:all (\d+) stay|(it) stays|(\d+) stay) lost/.exec(sentence);
  return {
    unknowns: unknowns === undefined ? 0 : Number(unknowns),
    stayLost: stay === null ? undefined : stay[2] ? 1 : Number(stay[1] ?? stay[3]),
  };
}

/** Checks, after one step, that the panel, the counters, the payload and the decoder say the same. */
function expectOneStory(run: FecRun, config: FecRunConfig) {
  const { view, state } = panelOf(run);
  const counters = fecCounters(view, config.packetMs);
  expect(state.stillMissing.length).toBe(counters.missing);
  expect(state.givenUp.length).toBe(counters.givenUp);
  expect(state.givenUp.length).toBe(view.decoder.givenUp);
  expect(state.rebuilt).toBe(counters.rebuilt);
  expect(state.rebuilt).toBe(view.decoder.rebuilt);
  expect(state.equations).toBe(view.decoder.equations);
  expect(state.solvable).toBe(0);

  const lackedByPayload = view.sources.filter((source) => view.held[source.esi] === undefined).map((source) => source.esi);
  expect(lackedByPayload).toEqual([...state.stillMissing, ...state.givenUp].sort((a, b) => a - b));

  const stated = statedCounts(equationsSummary(state, config.z));
  expect(stated.unknowns).toBe(counters.missing);
  expect(stated.stayLost).toBe(view.finished && counters.missing > 0 ? counters.missing : undefined);

  // The one give-up rule: a source is given up at the packet that brought the newest ESI heard W
  // past it, and the decoder (which only counts them) counts exactly the sources the lab names.
  const window = decoderWindowEsis(config.z);
  for (const esi of state.givenUp) {
    const at = view.sources[esi].givenUpAt ?? -1;
    expect(newestHeardEsi(view.packets.slice(0, at + 1))! - esi).toBeGreaterThanOrEqual(window);
    expect((newestHeardEsi(view.packets.slice(0, at)) ?? -1) - esi).toBeLessThan(window);
  }
}

function randomChannel(random: () => number): ChannelConfig {
  const seed = Math.floor(random() * 2 ** 31);
  const kinds = ['bernoulli', 'ge_packet', 'ge_time', 'outage'] as const;
  switch (kinds[Math.floor(random() * kinds.length)]) {
    case 'bernoulli':
      return { kind: 'bernoulli', seed, loss: random() * 0.5 };
    case 'ge_packet':
      return { kind: 'ge_packet', seed, p: 0.02 + random() * 0.2, q: 0.1 + random() * 0.6, lossGood: random() * 0.05, lossBad: 0.5 + random() * 0.5 };
    case 'ge_time':
      return { kind: 'ge_time', seed, p: 0.01 + random() * 0.1, q: 0.1 + random() * 0.6, stepMs: 1 + Math.floor(random() * 10) };
    default: {
      const periodMs = 20 + Math.floor(random() * 200);
      return { kind: 'outage', seed, periodMs, durationMs: 1 + random() * 20, phaseMs: Math.floor(random() * periodMs), jitterMs: 0 };
    }
  }
}

describe('the decoder panel', () => {
  it('states the counts the counters, the payload and the decoder show, at every step of random runs', () => {
    const random = seededRandom(18);
    for (let trial = 0; trial < 80; trial += 1) {
      const z = 1 + Math.floor(random() * 30);
      const config: FecRunConfig = {
        k: 1 + Math.floor(random() * Math.min(z, 10)),
        z,
        symbolBytes: 1 + Math.floor(random() * 8),
        packetMs: 1,
        channel: randomChannel(random),
        payload: new TextEncoder().encode(labText.slice(0, 20 + Math.floor(random() * (labText.length - 20)))),
      };
      const run = new FecRun(codec, config);
      try {
        expectOneStory(run, config);
        while (run.step()) expectOneStory(run, config);
      } catch (failure) {
        throw new Error(`trial ${trial}, ${JSON.stringify({ ...config, payload: config.payload.length })}: ${(failure as Error).message}`, { cause: failure });
      } finally {
        run.free();
      }
    }
  }, 30_000); // 80 random runs, every step checked: seconds when the host is busy, past Vitest's 5 s default

  it('says all 4 stay lost when 4 are missing after the run: S(5,100) at 15 % loss, the lab text', () => {
    const config: FecRunConfig = {
      k: 5,
      z: 100,
      symbolBytes: 8,
      packetMs: 1,
      channel: { kind: 'bernoulli', seed: 35, loss: 0.15 },
      payload: new TextEncoder().encode(labText),
    };
    const run = new FecRun(codec, config);
    while (run.step());
    const { state } = panelOf(run);
    run.free();
    expect(state.stillMissing.length).toBeGreaterThan(0);
    const sentence = equationsSummary(state, 100);
    expect(statedCounts(sentence).stayLost).toBe(state.stillMissing.length);
    expect(sentence).toContain(`(${state.stillMissing.join(', ')})`);
  });

  it('gives nothing up in sheet 1 step 2: the stream ends less than 32 ESIs past the burst', () => {
    const config: FecRunConfig = {
      k: 3,
      z: 9,
      symbolBytes: 4,
      packetMs: 1,
      channel: { kind: 'outage', seed: 1, periodMs: 100, durationMs: 5, phaseMs: 10, jitterMs: 0 },
      payload: new TextEncoder().encode(labText),
    };
    const run = new FecRun(codec, config);
    while (run.step());
    const { view, state } = panelOf(run);
    run.free();
    expect(state.givenUp).toEqual([]);
    expect(state.stillMissing).toEqual([8, 9, 10, 11]);
    expect(newestHeardEsi(view.packets)).toBe(39);
    expect(decoderWindowEsis(9)).toBe(32);
    expect(equationsSummary(state, 9)).toMatch(/^4 unknowns \(8, 9, 10, 11\), 3 independent equations over them, none naming a single one: .* so all 4 stay lost\.$/);
  });
});
