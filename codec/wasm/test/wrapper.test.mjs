// Proves the typed wrapper around the WebAssembly build: it runs the simd128
// kernel, real bytes survive encode -> lossy channel -> decode, and every
// misuse throws an SwfError that names the status and the field at fault.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadBuiltSwf, randomBytes, seededUint32 } from './load.mjs';

const { swf, SwfError, SwfStatus } = await loadBuiltSwf();

/** Asserts that run throws an SwfError with this status and field. */
function assertSwfError(run, status, field) {
  assert.throws(run, (error) => {
    assert.ok(error instanceof SwfError, `expected an SwfError, got ${error}`);
    assert.equal(error.status, status, error.message);
    assert.equal(error.field, field, error.message);
    assert.match(error.message, /^[A-Z].*\.$/, 'the message is a sentence');
    if (field !== undefined) assert.ok(error.message.includes(field), error.message);
    return true;
  });
}

test('the GF(2^8) kernel in use is simd128', () => {
  assert.equal(swf.gfKernel(), 'simd128');
});

test('coefficients match RFC 8681 for repair keys 0 and 1', () => {
  // From an independent TinyMT32 run (docs: /work/shared/PLATFORM.md).
  assert.deepEqual([...swf.coefficients(0, 15, 8)], [39, 42, 153, 208, 176, 219, 77, 72]);
  assert.deepEqual([...swf.coefficients(1, 15, 8)], [37, 225, 177, 176, 21, 246, 54, 139]);
});

test('encode, lossy channel, decode: every lost source comes back byte for byte', () => {
  const symbolBytes = 200;
  const sourceCount = 3000;
  const nextRandom = seededUint32(2024);
  const encoder = swf.encoder({ symbolBytes, k: 4, z: 20, firstEsi: 0xffffff00 });
  const decoder = swf.decoder({ symbolBytes, maxWindow: 20 });
  const channel = swf.channel({ kind: 'bernoulli', seed: 42, loss: 0.05 });
  try {
    const sent = new Map();
    const lost = new Set();
    const rebuilt = new Map();
    let repairsDelivered = 0;
    let tUs = 0;
    const deliver = (deliverTo) => {
      tUs += 1000;
      if (channel.lost(tUs)) return false;
      deliverTo();
      for (const { esi, symbol } of decoder.takeRebuilt()) rebuilt.set(esi, symbol);
      return true;
    };
    for (let i = 0; i < sourceCount; i++) {
      // Sources shorter than a symbol travel zero-padded.
      const source = randomBytes(nextRandom, 1 + (nextRandom() % symbolBytes));
      const { esi, repairDue } = encoder.addSource(source);
      const padded = new Uint8Array(symbolBytes);
      padded.set(source);
      sent.set(esi, padded);
      if (!deliver(() => decoder.addSource(esi, padded))) lost.add(esi);
      if (repairDue) {
        const { id, symbol } = encoder.buildRepair();
        if (deliver(() => decoder.addRepair(id, symbol))) repairsDelivered++;
      }
    }
    assert.ok(lost.size > 100, `the channel lost only ${lost.size} sources`);
    assert.ok(sent.has(0xffffffff) && sent.has(0), 'the ESIs wrap past 2^32 - 1');
    const ascending = (a, b) => a - b;
    assert.deepEqual([...rebuilt.keys()].sort(ascending), [...lost].sort(ascending));
    for (const [esi, symbol] of rebuilt) assert.deepEqual(symbol, sent.get(esi), `ESI ${esi}`);
    const stats = decoder.stats();
    assert.equal(stats.rebuilt, lost.size);
    assert.equal(stats.givenUp, 0);
    assert.equal(stats.sources, sourceCount - lost.size);
    assert.equal(stats.repairs, repairsDelivered);
    assert.equal(stats.unknowns, 0);
    assert.ok(stats.peakMemoryBytes >= stats.memoryBytes && stats.memoryBytes > 0);
  } finally {
    encoder.free();
    decoder.free();
    channel.free();
  }
});

test('symbols stay right when the WebAssembly heap grows under the wrapper', () => {
  // A 1000-symbol window of 60000-byte symbols needs far more than the
  // initial 16 MiB heap: the wrapper must not keep views of the old buffer.
  const symbolBytes = 60000;
  const encoder = swf.encoder({ symbolBytes, k: 2, z: 1000 });
  const decoder = swf.decoder({ symbolBytes, maxWindow: 1000 });
  try {
    const nextRandom = seededUint32(7);
    const first = randomBytes(nextRandom, symbolBytes);
    const second = randomBytes(nextRandom, symbolBytes);
    encoder.addSource(first);
    encoder.addSource(second);
    const { id, symbol } = encoder.buildRepair();
    decoder.addSource(id.firstEsi, first);
    decoder.addRepair(id, symbol);
    assert.deepEqual(decoder.takeRebuilt(), [{ esi: id.firstEsi + 1, symbol: second }]);
  } finally {
    encoder.free();
    decoder.free();
  }
});

test('invalid encoder configs throw an SwfError naming the field', () => {
  const valid = { symbolBytes: 1400, k: 5, z: 100 };
  const cases = [
    [{ symbolBytes: 0 }, 'symbolBytes'],
    [{ symbolBytes: 65536 }, 'symbolBytes'],
    [{ k: 0 }, 'k'],
    [{ k: 65537 }, 'k'], // would wrap to 1 in a uint16_t
    [{ z: 0 }, 'z'],
    [{ z: 4096 }, 'z'],
    [{ dt: 16 }, 'dt'],
    [{ dt: 256 }, 'dt'], // would wrap to 0 in a uint8_t
    [{ firstEsi: -1 }, 'firstEsi'],
    [{ firstEsi: 2 ** 32 }, 'firstEsi'],
    [{ firstRepairKey: 65536 }, 'firstRepairKey'],
    [{ k: 1.5 }, 'k'],
  ];
  for (const [change, field] of cases) {
    assertSwfError(() => swf.encoder({ ...valid, ...change }), SwfStatus.INVALID, field);
  }
});

test('invalid channel configs throw an SwfError naming the field', () => {
  const cases = [
    [{ kind: 'bernoulli', seed: 1, loss: 1.5 }, 'loss'],
    [{ kind: 'bernoulli', seed: -1, loss: 0.5 }, 'seed'],
    [{ kind: 'ge_packet', seed: 1, p: -0.1, q: 0.5, lossGood: 0, lossBad: 1 }, 'p'],
    [{ kind: 'ge_time', seed: 1, p: 0.01, q: 0.167, stepMs: 0 }, 'stepMs'],
    [{ kind: 'trace', intervals: [{ startMs: 10, endMs: 20 }, { startMs: 5, endMs: 8 }] }, 'intervals'],
    [{ kind: 'wormhole', seed: 1 }, 'kind'],
  ];
  for (const [config, field] of cases) {
    assertSwfError(() => swf.channel(config), SwfStatus.INVALID, field);
  }
});

test('invalid decoder configs throw an SwfError naming the field', () => {
  const cases = [
    [{ symbolBytes: 0, maxWindow: 100 }, 'symbolBytes'],
    [{ symbolBytes: 1400, maxWindow: 0 }, 'maxWindow'],
    [{ symbolBytes: 1400, maxWindow: 65537 }, 'maxWindow'],
    [{ symbolBytes: 1400, maxWindow: 100, windowCapacity: 99 }, 'windowCapacity'],
  ];
  for (const [config, field] of cases) {
    assertSwfError(() => swf.decoder(config), SwfStatus.INVALID, field);
  }
});

test('bad arguments and bytes throw an SwfError with the status of libswf', () => {
  const decoder = swf.decoder({ symbolBytes: 16, maxWindow: 4 });
  const encoder = swf.encoder({ symbolBytes: 16, k: 2, z: 4 });
  const channel = swf.channel({ kind: 'perfect' });
  try {
    assertSwfError(() => decoder.addSource(0, new Uint8Array(15)), SwfStatus.MALFORMED, undefined);
    assertSwfError(() => decoder.addSource(-1, new Uint8Array(16)), SwfStatus.INVALID, 'esi');
    const id = { repairKey: 0, dt: 15, nss: 5, firstEsi: 0 }; // nss above maxWindow
    assertSwfError(() => decoder.addRepair(id, new Uint8Array(16)), SwfStatus.MALFORMED, undefined);
    assertSwfError(() => encoder.buildRepair(), SwfStatus.INVALID, undefined); // no source yet
    assertSwfError(() => encoder.addSource(new Uint8Array(17)), SwfStatus.INVALID, undefined);
    assertSwfError(() => swf.readRepairId(new Uint8Array(7)), SwfStatus.MALFORMED, undefined);
    assertSwfError(() => swf.writeRepairId({ ...id, dt: 16 }), SwfStatus.INVALID, undefined);
    assertSwfError(() => channel.lost(1.5), SwfStatus.INVALID, 'tUs');
    assertSwfError(() => channel.lostDuring(0, -1), SwfStatus.INVALID, 'endUs');
    assert.equal(decoder.stats().rejected, 2);
  } finally {
    decoder.free();
    encoder.free();
    channel.free();
  }
});

test('objects refuse calls after free(), and free() twice is harmless', () => {
  const encoder = swf.encoder({ symbolBytes: 16, k: 2, z: 4 });
  encoder.free();
  encoder.free();
  assertSwfError(() => encoder.addSource(new Uint8Array(16)), SwfStatus.INVALID, undefined);
  const decoder = swf.decoder({ symbolBytes: 16, maxWindow: 4 });
  decoder.free();
  assertSwfError(() => decoder.takeRebuilt(), SwfStatus.INVALID, undefined);
  const channel = swf.channel({ kind: 'perfect' });
  channel.free();
  assertSwfError(() => channel.lost(0), SwfStatus.INVALID, undefined);
  assertSwfError(() => channel.lostDuring(0, 1), SwfStatus.INVALID, undefined);
});

test('measureChannel: the optical preset over an hour, and the stream\'s losses are the channel\'s', () => {
  const q = 10 / 16.7;
  const config = { kind: 'ge_time', seed: 1, p: (q * 0.0256) / (1 - 0.0256), q, stepMs: 10 };
  const stats = swf.measureChannel(config, { durationMs: 3600e3, rateMbps: 10, packetBytes: 1400 });
  assert.ok(Math.abs(stats.timeLostRatio - 0.0256) <= 0.001, `${stats.timeLostRatio}`);
  assert.ok(Math.abs(stats.burstMean - 16.7) <= 0.5, `${stats.burstMean}`);
  assert.equal(stats.burstHistogram.reduce((sum, count) => sum + count, 0), stats.bursts);

  const minute = { durationMs: 60e3, rateMbps: 10, packetBytes: 1400 };
  const measured = swf.measureChannel(config, minute);
  const channel = swf.channel(config);
  try {
    let lost = 0;
    for (let packet = 0; packet < measured.packets; packet++) {
      if (channel.lost(Math.floor((packet * 11200) / 10))) lost++;
    }
    assert.equal(measured.packetsLost, lost);
  } finally {
    channel.free();
  }
});

test('measureChannel of a per-packet model has no time loss and bursts in packets', () => {
  const stats = swf.measureChannel({ kind: 'bernoulli', seed: 3, loss: 0.05 },
    { durationMs: 10e3, rateMbps: 8, packetBytes: 1000 });
  assert.equal(stats.timeBased, false);
  assert.equal(stats.timeLostRatio, null);
  assert.equal(stats.burstUnit, 'packets');
  assert.equal(stats.packets, 10000);
});

test('measureChannel names the invalid field of the channel or the stream', () => {
  const stream = { durationMs: 1000, rateMbps: 10, packetBytes: 1400 };
  assertSwfError(() => swf.measureChannel({ kind: 'ge_time', seed: 1, p: 0.1, q: 2, stepMs: 10 }, stream),
    SwfStatus.INVALID, 'q');
  const perfect = { kind: 'perfect' };
  assertSwfError(() => swf.measureChannel(perfect, { ...stream, durationMs: 0 }), SwfStatus.INVALID, 'durationMs');
  assertSwfError(() => swf.measureChannel(perfect, { ...stream, rateMbps: -1 }), SwfStatus.INVALID, 'rateMbps');
  assertSwfError(() => swf.measureChannel(perfect, { ...stream, packetBytes: 0 }), SwfStatus.INVALID, 'packetBytes');
  assertSwfError(() => swf.measureChannel(perfect, { ...stream, packetBytes: 1.5 }), SwfStatus.INVALID,
    'packetBytes');
  assertSwfError(() => swf.measureChannel(perfect, { ...stream, lossRule: 'end' }), SwfStatus.INVALID, 'lossRule');
  assertSwfError(() => swf.measureChannel(perfect, { ...stream, lossRule: 'overlap', linkRateMbps: 9 }),
    SwfStatus.INVALID, 'linkRateMbps');
});

test('measureChannel by overlap: the DVB preset loses the packets lostDuring loses, more than at the start', () => {
  const config = { kind: 'outage', seed: 1, periodMs: 258, durationMs: 15.2 };
  const stream = { durationMs: 60e3, rateMbps: 10, packetBytes: 1400, lossRule: 'overlap', linkRateMbps: 12 };
  const measured = swf.measureChannel(config, stream);
  const atStart = swf.measureChannel(config, { ...stream, lossRule: 'start' });
  const channel = swf.channel(config);
  try {
    let lost = 0;
    for (let packet = 0; packet < measured.packets; packet++) {
      if (channel.lostDuring(packet * 1120, packet * 1120 + 934)) lost++; // 934 us on the air at 12 Mbit/s
    }
    assert.equal(measured.packetsLost, lost);
  } finally {
    channel.free();
  }
  assert.equal(measured.lostUs, atStart.lostUs);
  assert.ok(measured.packetsLost > atStart.packetsLost);
});

test('residualStream counts the optical channel as the native build does (codec/tests/test_residual.c)', () => {
  const stream = swf.residualStream({
    k: 5, z: 100, packetMs: 1, channel: { kind: 'ge_time', seed: 1, p: 0.01, q: 0.167, stepMs: 10 },
  });
  try {
    assert.deepEqual(stream.advance(100_000), {
      sources: 100_000, lost: 5870, packets: 120_307, packetsLost: 7610, rebuilt: 476, rebuiltWrong: 0,
    });
  } finally {
    stream.free();
  }
  assertSwfError(() => stream.advance(1), SwfStatus.INVALID, undefined);
});

test('residualStream goes on where the packets before firstPacket end, and refuses what libswf refuses', () => {
  const channel = { kind: 'trace', intervals: [{ startMs: 0, endMs: 100 }] };
  const packetsLost = (firstPacket) => {
    const stream = swf.residualStream({ k: 10, z: 10, packetMs: 1, firstPacket, channel });
    try {
      return stream.advance(1000).packetsLost;
    } finally {
      stream.free();
    }
  };
  assert.deepEqual([0, 95, 100].map(packetsLost), [100, 5, 0]);

  const valid = { k: 2, z: 10, packetMs: 1, channel: { kind: 'perfect' } };
  assertSwfError(() => swf.residualStream({ ...valid, k: 0 }), SwfStatus.INVALID, 'k');
  assertSwfError(() => swf.residualStream({ ...valid, z: 4096 }), SwfStatus.INVALID, 'z');
  assertSwfError(() => swf.residualStream({ ...valid, packetMs: -1 }), SwfStatus.INVALID, 'packetMs');
  assertSwfError(() => swf.residualStream({ ...valid, firstPacket: 1.5 }), SwfStatus.INVALID, 'firstPacket');
  assertSwfError(() => swf.residualStream({ ...valid, channel: { kind: 'bernoulli', seed: 1, loss: 2 } }),
    SwfStatus.INVALID, 'loss');
  const late = swf.residualStream({ ...valid, packetMs: 1e6, firstPacket: 1e6 });
  try {
    assertSwfError(() => late.advance(1), SwfStatus.RANGE, undefined);
  } finally {
    late.free();
  }
});

test('fecPath makes an encoder, a decoder and a channel for one stream, or names the field refused', () => {
  const path = swf.fecPath({ symbolBytes: 8, k: 1, z: 4, channel: { kind: 'perfect' } });
  try {
    const source = Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8);
    path.encoder.addSource(source);
    const { id, symbol } = path.encoder.buildRepair();
    assert.equal(path.channel.lost(0), false);
    path.decoder.addRepair(id, symbol); // the source itself was lost
    assert.deepEqual(path.decoder.takeRebuilt(), [{ esi: 0, symbol: source }]);
  } finally {
    path.free();
  }
  assertSwfError(() => path.decoder.stats(), SwfStatus.INVALID, undefined);
  assertSwfError(() => swf.fecPath({ symbolBytes: 8, k: 1, z: 4, channel: { kind: 'outage', seed: 1, periodMs: 0, durationMs: 0 } }),
    SwfStatus.INVALID, 'periodMs');
});
