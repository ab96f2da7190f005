import { describe, expect, it } from 'vitest';
import { campaignCsvUrl, csvUrl } from './csv-urls';

describe('csvUrl', () => {
  it('builds CSV export addresses', () => {
    expect(csvUrl('0e5015', 'flow-samples', 'http://127.0.0.1:8000/')).toBe('http://127.0.0.1:8000/api/runs/0e5015/csv/flow-samples');
    expect(campaignCsvUrl('cf22e4d8a', 'https://lab.example/satlab/')).toBe('https://lab.example/satlab/api/campaigns/cf22e4d8a/csv');
  });
});
