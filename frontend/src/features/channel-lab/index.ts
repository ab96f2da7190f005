export { ChannelLab } from './components/channel-lab';
