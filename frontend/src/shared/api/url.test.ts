import { describe, expect, it } from 'vitest';
import { apiUrl, streamUrl } from './url';

describe('apiUrl', () => {
  it('resolves api/ against the page, wherever the site is mounted', () => {
    expect(apiUrl('runs', 'http://127.0.0.1:8000/?lab=experiments')).toBe('http://127.0.0.1:8000/api/runs');
    expect(apiUrl('/labs', 'https://lab.example/satlab/index.html?lab=experiments&run=abc')).toBe('https://lab.example/satlab/api/labs');
  });

  it('gives WebSocket addresses with the page scheme', () => {
    expect(streamUrl('runs/0e5015/stream', 'http://127.0.0.1:8000/')).toBe('ws://127.0.0.1:8000/api/runs/0e5015/stream');
    expect(streamUrl('events', 'https://lab.example/satlab/')).toBe('wss://lab.example/satlab/api/events');
  });
});
