import { describe, expect, it } from 'vitest';
import { apiUrl, campaignCsvUrl, csvUrl, streamUrl } from './api-url';

describe('apiUrl', () => {
  it('resolves api/ against the page, wherever the site is mounted', () => {
    expect(apiUrl('runs', 'http://127.0.0.1:8000/?lab=experiments')).toBe('http://127.0.0.1:8000/api/runs');
    expect(apiUrl('/labs', 'https://lab.example/satlab/index.html?lab=experiments&run=abc')).toBe('https://lab.example/satlab/api/labs');
  });

  it('gives WebSocket addresses with the page scheme', () => {
    expect(streamUrl('runs/0e5015/stream', 'http://127.0.0.1:8000/')).toBe('ws://127.0.0.1:8000/api/runs/0e5015/stream');
    expect(streamUrl('events', 'https://lab.example/satlab/')).toBe('wss://lab.example/satlab/api/events');
  });

  it('builds CSV export addresses', () => {
    expect(csvUrl('0e5015', 'flow-samples', 'http://127.0.0.1:8000/')).toBe('http://127.0.0.1:8000/api/runs/0e5015/csv/flow-samples');
    expect(campaignCsvUrl('cf22e4d8a', 'https://lab.example/satlab/')).toBe('https://lab.example/satlab/api/campaigns/cf22e4d8a/csv');
  });
});
