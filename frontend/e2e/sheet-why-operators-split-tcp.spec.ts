import { expect, test } from './fixtures';
import { expectPrintable, expectReference, openSheet, questions, reference, runWidget } from './sheets';

// The PEP sheet on the static site: five runs of geo-ideal, each with its reference run.
test.use({ expectedFailures: [/\/labs\/api\//] });

const runs = ['split-end-to-end-1m', 'split-pep-fast-open-1m', 'split-quic-1m', 'split-wifi-end-to-end', 'split-wifi-pep'];

test('why operators split TCP, and why QUIC cannot be split', async ({ page }) => {
  await openSheet(page, 'Why operators split TCP, and why QUIC cannot be split');
  await expect(questions(page)).toHaveCount(7);
  for (const id of runs) await expectReference(runWidget(page, id), id);
  // The sheet's claims, in its shipped runs: Fast Open between the PEPs brings the first byte one
  // 500 ms round trip sooner, the PEPs split no QUIC connection, and they repair Wi-Fi losses locally.
  const flow = (id: string) => reference(id).result.flows[0];
  const firstByte = (id: string) => flow(id).time_to_first_byte_ms ?? 0;
  expect(firstByte('split-end-to-end-1m') - firstByte('split-pep-fast-open-1m')).toBeGreaterThan(375);
  expect(flow('split-quic-1m').pep_connections).toBe(0);
  expect(flow('split-wifi-pep').pep_satellite_retransmissions).toBe(0);
  const time = (id: string) => flow(id).download_time_s ?? Infinity;
  expect(time('split-wifi-pep')).toBeLessThan(0.5 * time('split-wifi-end-to-end'));
  await expectPrintable(page);
});
