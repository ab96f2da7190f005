// Proves that the WebAssembly build's channel models lose exactly the packets
// of every vector in tests/vectors/channel/ (from an independent Python
// reference), asked at each send time or by overlap of each packet's time on
// the air: same seed and parameters, same decisions in every build; and
// that measureChannel gives exactly the figures of every vector in
// tests/vectors/channel/stats/, which the native build checks too.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadBuiltSwf, readVectors } from './load.mjs';

const { swf } = await loadBuiltSwf();

/** The vectors name fields as swf_channel_config does (snake_case). */
function camelCaseKeys(value) {
  if (Array.isArray(value)) return value.map(camelCaseKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, field]) => [
    key.replace(/_([a-z])/g, (_match, letter) => letter.toUpperCase()),
    camelCaseKeys(field),
  ]));
}

function configOf(vector) {
  return { kind: vector.kind, seed: vector.seed, ...camelCaseKeys(vector.params) };
}

for (const { file, vector } of readVectors('channel')) {
  test(`channel reproduces ${file}`, () => {
    const channel = swf.channel(configOf(vector));
    try {
      const lost = [];
      // Cases with air_us are decided by overlap of each packet's time on the air.
      for (let packet = 0; packet < vector.packets; packet++) {
        const tUs = packet * vector.interval_us;
        const decided = vector.air_us === undefined ? channel.lost(tUs)
          : channel.lostDuring(tUs, tUs + vector.air_us);
        if (decided) lost.push(packet);
      }
      assert.deepEqual(lost, vector.lost);
    } finally {
      channel.free();
    }
  });
}

for (const { file, vector } of readVectors('channel/stats')) {
  test(`measureChannel reproduces stats/${file}`, () => {
    const stats = swf.measureChannel(configOf(vector), camelCaseKeys(vector.stream));
    const { burstUnit, burstBinWidth, ...figures } = stats;
    assert.deepEqual(figures, camelCaseKeys(vector.stats));
    assert.equal(burstUnit, vector.stats.time_based ? 'ms' : 'packets');
    assert.equal(burstBinWidth, vector.stats.time_based ? 5 : 1);
  });
}
