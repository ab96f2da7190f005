export { FecLab } from './components/fec-lab';
