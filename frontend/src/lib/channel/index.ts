export * from './channel-params';
export { ChannelFields } from './channel-fields';
