export { FecLab, fecLabSettings, type FecLabSettings } from './components/fec-lab';
