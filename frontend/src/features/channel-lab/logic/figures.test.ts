import { describe, expect, it } from 'vitest';
import { csvText } from '../../../components/charts';
import { burstTable, channelSource, drawnPoints, lossTable, residualTable } from './figures';
import type { ResidualPoint } from './residual-curve';
import { emptyTally } from './residual-interval';

const header = (csv: string) => csv.split('\r\n')[0];

describe('the channel lab’s figures as CSV', () => {
  it('writes the raster’s packets with their send time in ms and whether each was lost', () => {
    const csv = csvText(lossTable(Uint8Array.from([0, 1, 1, 0]), 1.5));
    expect(csv.split('\r\n')).toEqual(['Packet (index in send order),Sent at (ms),Lost (1 or 0)', '0,0,0', '1,1.5,1', '2,3,1', '3,4.5,0', '']);
  });

  it('writes the histogram’s bins with their units', () => {
    expect(csvText(burstTable([{ length: 1, count: 12 }, { length: 3, count: 2 }])).split('\r\n')).toEqual([
      'Burst length (packets lost in a row),Bursts (count)',
      '1,12',
      '3,2',
      '',
    ]);
  });

  it('writes the curve as drawn, losses in %, with the points that counted a source only', () => {
    const counted: ResidualPoint = { ...emptyTally, k: 5, sources: 1000, lost: 10, batches: 1, packets: 1200, packetsLost: 30 };
    const waiting: ResidualPoint = { ...emptyTally, k: 10, packets: 0, packetsLost: 0 };
    const csv = csvText(residualTable([counted, waiting]));
    expect(header(csv)).toBe(
      'k (source packets per repair),Residual loss (%),"Residual loss, 95 % interval low (%)","Residual loss, 95 % interval high (%)",Channel loss (%),Sources counted (packets)',
    );
    const [row] = drawnPoints([counted]);
    expect(csv.split('\r\n')[1]).toBe(`5,${row.residualLoss * 100},${row.lower * 100},${row.upper * 100},2.5,1000`);
    expect(csv.split('\r\n')).toHaveLength(3);
  });
});

describe('channelSource', () => {
  it('names the model, every setting with the seed, and the packet spacing', () => {
    expect(channelSource({ kind: 'ge_time', seed: 7, p: 0.01, q: 0.167, stepMs: 10 }, 1.2)).toBe(
      'satlab channel lab: Gilbert-Elliott per time step (seed 7, p 0.01, q 0.167, stepMs 10), a packet every 1.2 ms',
    );
  });
});
