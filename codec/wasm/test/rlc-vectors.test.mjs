// Proves that the WebAssembly build encodes every RLC vector of
// tests/vectors/rlc/ byte for byte (the vectors come from an independent
// Python reference of RFC 8681), and that its decoder rebuilds a source from
// the vector's repair.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { fromHex, loadBuiltSwf, readVectors, toHex } from './load.mjs';

const { swf } = await loadBuiltSwf();

for (const { file, vector } of readVectors('rlc')) {
  const sources = vector.sources.map(fromHex);
  const id = {
    repairKey: vector.repair_key,
    dt: vector.dt,
    nss: sources.length,
    firstEsi: vector.first_esi,
  };

  test(`encoder reproduces ${file}`, () => {
    const encoder = swf.encoder({
      symbolBytes: vector.symbol_bytes,
      k: sources.length,
      z: sources.length,
      dt: vector.dt,
      firstEsi: vector.first_esi,
      firstRepairKey: vector.repair_key,
    });
    try {
      const due = sources.map((source) => encoder.addSource(source).repairDue);
      assert.deepEqual(due, sources.map((_, i) => i === sources.length - 1));
      const repair = encoder.buildRepair();
      assert.deepEqual(repair.id, id);
      assert.equal(toHex(repair.symbol), vector.repair);
      assert.deepEqual(swf.readRepairId(swf.writeRepairId(repair.id)), id);
    } finally {
      encoder.free();
    }
  });

  // The last source the repair covers with a non-zero coefficient.
  const coefficients = swf.coefficients(vector.repair_key, vector.dt, sources.length);
  const lost = coefficients.findLastIndex((c) => c !== 0);
  const skip = lost < 0 && 'every coefficient of this sparse repair is zero: it rebuilds nothing';
  test(`decoder rebuilds a source of ${file} from its repair`, { skip }, () => {
    const decoder = swf.decoder({ symbolBytes: vector.symbol_bytes, maxWindow: sources.length });
    try {
      sources.forEach((source, i) => {
        if (i !== lost) decoder.addSource(vector.first_esi + i, source);
      });
      decoder.addRepair(id, fromHex(vector.repair));
      assert.deepEqual(
        decoder.takeRebuilt().map(({ esi, symbol }) => ({ esi, hex: toHex(symbol) })),
        [{ esi: vector.first_esi + lost, hex: vector.sources[lost] }],
      );
    } finally {
      decoder.free();
    }
  });
}
