export * from './channel-params';
export * from './channel-presets';
export { ChannelFields } from './channel-fields';
export { describeChannel } from './channel-description';
