export { ChannelLab, channelLabSettings, type ChannelLabSettings } from './components/channel-lab';
