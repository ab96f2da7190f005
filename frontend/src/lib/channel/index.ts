export * from './channel-params';
export * from './channel-presets';
export { ChannelFields } from './channel-fields';
