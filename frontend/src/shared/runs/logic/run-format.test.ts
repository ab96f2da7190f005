import { describe, expect, it } from 'vitest';
import type { Scenario } from '../api/types';
import { flowGroupOf, scenarioOf, tunnelOf } from '../../../test/api-fixtures';
import { describeForwardChannel, describeScenario, describeTimeLimit, formatDuration, formatNumber, formatSize } from './run-format';

describe('formatting', () => {
  it('prints figures and durations with their units', () => {
    expect(formatNumber(0.76061, 2)).toBe('0.76');
    expect(formatNumber(null, 2)).toBe('–');
    expect(formatDuration(3.177)).toBe('3.2 s');
    expect(formatDuration(297.4)).toBe('4 min 57 s');
  });
});

describe('describing a run its time limit stopped', () => {
  it("gives each flow's least download time and how far it had got", () => {
    const flows = [
      { flow: 0, direction: 'download', finished: false, download_time_at_least_s: 1457.5, bytes_acked: 12_070_528 },
      { flow: 1, direction: 'download', finished: true, download_time_at_least_s: null, bytes_acked: 20_971_520 },
      { flow: 2, direction: 'upload', finished: false, download_time_at_least_s: null, bytes_acked: null },
    ];
    expect(describeTimeLimit({ iteration: 0, limit_s: 1458, flows })).toBe(
      'Stopped at its time limit of 24 min 18 s in iteration 0: flow 0 (download) takes at least 24 min 18 s, 11.51 MiB acknowledged; ' +
        'flow 1 (download) had finished; flow 2 (upload) had not started.',
    );
  });
});

describe('describing a run', () => {
  const scenario: Scenario = scenarioOf({
    name: 'latecomer',
    tunnel: tunnelOf({ k: 5, z: 100 }),
    flows: [
      flowGroupOf({ size_bytes: 20971520 }),
      flowGroupOf({ transport: 'quic-picoquic', cc: 'bbr1', hystart: null, size_bytes: 300000, count: 2, start_s: 5 }),
    ],
  });

  it('says what each flow group moves and which FEC protects it', () => {
    expect(describeScenario(scenario)).toBe(
      '1 × tcp cubic (Hystart off), 20 MiB · 2 × quic-picoquic bbr1, 300,000 bytes from 5 s · FEC S(5,100)',
    );
    expect(describeScenario({ ...scenario, tunnel: null, flows: [{ ...scenario.flows[0], size_bytes: null, duration_s: 30, direction: 'upload' }] })).toBe(
      '1 × tcp cubic (Hystart off), 30 s upload · no FEC tunnel',
    );
    expect(formatSize(1572864)).toBe('1.5 MiB');
  });

  it('says what the forward channel loses, with the p and q derived from measured statistics', () => {
    // Channels as a lab writes them: the backend keeps a derived p and q beside the measured statistics.
    const withChannel = (channel: object): Scenario => ({
      ...scenario,
      path: { ...scenario.path, forward: { ...scenario.path.forward, channel: channel as Scenario['path']['forward']['channel'] } },
    });
    expect(
      describeForwardChannel(
        withChannel({ model: 'ge-time', loss_time_ratio: 0.0256, mean_burst_ms: 16.7, step_ms: 10, p: 0.01573208, q: 0.5988024 }),
      ),
    ).toBe('Forward channel: Gilbert-Elliott in time, 2.56 % of the time lost in bursts of 16.7 ms on average (p 0.0157, q 0.599 per 10 ms step, derived)');
    expect(describeForwardChannel(withChannel({ model: 'ge-time', p: 0.01, q: 0.167, step_ms: 10 }))).toBe(
      'Forward channel: Gilbert-Elliott in time, p 0.01, q 0.167 per 10 ms step',
    );
    expect(describeForwardChannel(withChannel({ model: 'outage', period_ms: 258, duration_ms: 15.2 }))).toBe(
      'Forward channel: an outage of 15.2 ms every 258 ms',
    );
    expect(describeForwardChannel(withChannel({ model: 'perfect' }))).toBeNull();
    expect(describeForwardChannel(scenario)).toBeNull();
  });
});
