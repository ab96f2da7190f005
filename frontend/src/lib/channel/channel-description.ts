import type { ChannelConfig, LossInterval } from '../codec';
import { channelKindLabels } from './channel-params';

const settingText = (value: unknown) =>
  Array.isArray(value) ? (value as LossInterval[]).map((interval) => `${interval.startMs}-${interval.endMs}`).join(',') : String(value);

/**
 * describeChannel names a channel model with every setting and its seed, by the codec's names (as
 * in the page's address): "Gilbert-Elliott per time step (seed 1, p 0.01, q 0.167, stepMs 10)".
 * The same settings draw the same losses: a figure's caption says which.
 */
export function describeChannel(channel: ChannelConfig): string {
  const { kind, ...settings } = channel;
  const described = Object.entries(settings)
    .map(([name, value]) => `${name} ${settingText(value)}`)
    .join(', ');
  return `${channelKindLabels[kind]}${described ? ` (${described})` : ''}`;
}
