// bench.mjs - throughput of libswf's WebAssembly build through the typed
// wrapper, as JSON lines on stdout (one per measurement):
//   {"bench":"encode","target":"wasm","kernel":"simd128","k":5,"z":100,
//    "symbol_bytes":1400,"source_mbps":...}
//   {"bench":"decode",...,"loss":0.05,"symbols":1000000,"source_mbps":...,
//    "decoder_peak_bytes":...}
//   {"bench":"residual",...,"channel":"optical","packets_per_s":...}
// source_mbps counts source bits (symbols * symbol_bytes * 8) per second of
// encode work alone (best of 5 rounds of 10^5 symbols) or of decode work alone
// (all 10^6 symbols); residual's packets_per_s counts packets (sources and
// repairs) through encoder, channel and decoder per second of one
// swf_residual_advance over 10^6 sources. Run: node codec/wasm/bench.mjs
// (after codec/wasm/build.sh).
import { performance } from 'node:perf_hooks';

import { loadBuiltSwf, randomBytes, seededUint32 } from './test/load.mjs';

const SCHEDULES = [[10, 100], [5, 100], [2, 100], [4, 20]];
const SYMBOL_BYTES = 1400;
// Encode reports the best of a few rounds: other processes on a shared
// machine only ever slow a round down.
const ENCODE_ROUNDS = 5;
const ENCODE_SYMBOLS = 100_000;
const DECODE_SYMBOLS = 1_000_000;
const DECODE_LOSS = 0.05;
// Decode is timed batch by batch: encode a batch, then decode it. A batch
// bounds the memory held by generated repairs.
const DECODE_BATCH = 20_000;
const RESIDUAL_SOURCES = 1_000_000;

const { swf } = await loadBuiltSwf();
const kernel = swf.gfKernel();
// Payload bytes do not change the work; a few distinct ones keep it honest.
const nextRandom = seededUint32(1);
const sourcePool = Array.from({ length: 64 }, () => randomBytes(nextRandom, SYMBOL_BYTES));

const mbps = (symbols, seconds) => (symbols * SYMBOL_BYTES * 8) / seconds / 1e6;
const print = (row) => console.log(JSON.stringify(row));

function benchEncode(k, z) {
  const encoder = swf.encoder({ symbolBytes: SYMBOL_BYTES, k, z });
  try {
    const encode = (count) => {
      for (let i = 0; i < count; i++) {
        if (encoder.addSource(sourcePool[i % sourcePool.length]).repairDue) encoder.buildRepair();
      }
    };
    encode(10 * z); // fills the window and warms the JIT
    let bestSeconds = Infinity;
    for (let round = 0; round < ENCODE_ROUNDS; round++) {
      const start = performance.now();
      encode(ENCODE_SYMBOLS);
      bestSeconds = Math.min(bestSeconds, (performance.now() - start) / 1000);
    }
    print({ bench: 'encode', target: 'wasm', kernel, k, z, symbol_bytes: SYMBOL_BYTES,
      source_mbps: Math.round(mbps(ENCODE_SYMBOLS, bestSeconds)) });
  } finally {
    encoder.free();
  }
}

function benchDecode(k, z) {
  const path = swf.fecPath({ symbolBytes: SYMBOL_BYTES, k, z, channel: { kind: 'bernoulli', seed: 5, loss: DECODE_LOSS } });
  const { encoder, decoder, channel } = path;
  try {
    let lost = 0;
    let rebuilt = 0;
    let decodeMs = 0;
    for (let batchStart = 0; batchStart < DECODE_SYMBOLS; batchStart += DECODE_BATCH) {
      // Every repair is delivered; sources cross a Bernoulli channel.
      const packets = [];
      for (let i = batchStart; i < batchStart + DECODE_BATCH; i++) {
        const source = sourcePool[i % sourcePool.length];
        const { esi, repairDue } = encoder.addSource(source);
        if (channel.lost(i)) lost++;
        else packets.push({ esi, source });
        if (repairDue) packets.push(encoder.buildRepair());
      }
      const start = performance.now();
      for (const packet of packets) {
        if (packet.id === undefined) decoder.addSource(packet.esi, packet.source);
        else decoder.addRepair(packet.id, packet.symbol);
        rebuilt += decoder.takeRebuilt().length;
      }
      decodeMs += performance.now() - start;
    }
    const stats = decoder.stats();
    if (stats.rebuilt !== rebuilt || stats.rebuilt + stats.givenUp + stats.unknowns < lost) {
      throw new Error(`decode S(${k},${z}): ${lost} sources lost but ${rebuilt} rebuilt, `
        + `${stats.givenUp} given up and ${stats.unknowns} still unknown.`);
    }
    print({ bench: 'decode', target: 'wasm', kernel, k, z, symbol_bytes: SYMBOL_BYTES,
      loss: DECODE_LOSS, symbols: DECODE_SYMBOLS, source_mbps: Math.round(mbps(DECODE_SYMBOLS, decodeMs / 1000)),
      decoder_peak_bytes: stats.peakMemoryBytes, lost, rebuilt, given_up: stats.givenUp });
  } finally {
    path.free();
  }
}

// The channel lab's Monte-Carlo (swf_residual): packets through encoder, channel and decoder per
// second, the whole loop inside WebAssembly, over the optical study channel.
function benchResidual(k, z) {
  const channel = { kind: 'ge_time', seed: 1, p: 0.01, q: 0.167, stepMs: 10 };
  const stream = swf.residualStream({ k, z, packetMs: 1, channel });
  try {
    const start = performance.now();
    const counts = stream.advance(RESIDUAL_SOURCES);
    const seconds = (performance.now() - start) / 1000;
    print({ bench: 'residual', target: 'wasm', kernel, k, z, channel: 'optical', sources: RESIDUAL_SOURCES,
      packets: counts.packets, packets_per_s: Math.round(counts.packets / seconds),
      residual_loss: counts.lost / counts.sources });
  } finally {
    stream.free();
  }
}

for (const [k, z] of SCHEDULES) benchEncode(k, z);
for (const [k, z] of SCHEDULES) benchDecode(k, z);
for (const [k, z] of SCHEDULES) benchResidual(k, z);
