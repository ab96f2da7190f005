import { it } from 'vitest';
import { toChannelConfig, channelPresets, defaultChannelParams } from '../src/lib/channel';
import { residualLoss } from '../src/features/channel-lab/logic/residual-loss';
import { loadTestCodec } from '../src/test/load-test-codec';

const sources = 1_000_000;
const z = 100;

it('measures the residual-loss Monte-Carlo in packets per second', async () => {
  const codec = await loadTestCodec();
  for (const preset of channelPresets) {
    const channel = toChannelConfig({ ...defaultChannelParams, ...preset.params });
    for (const k of [2, 5, 10]) {
      const started = performance.now();
      const result = residualLoss(codec, { k, z, packetMs: 1, channel, sources });
      const seconds = (performance.now() - started) / 1000;
      process.stdout.write(
        `${JSON.stringify({
          bench: 'residual_loss_monte_carlo',
          runtime: `node ${process.version}`,
          gf_kernel: codec.gfKernel(),
          channel: preset.id,
          k,
          z,
          packets: result.packets,
          seconds: Number(seconds.toFixed(3)),
          packets_per_s: Math.round(result.packets / seconds),
          residual_loss: result.residualLoss,
        })}\n`,
      );
    }
  }
});
