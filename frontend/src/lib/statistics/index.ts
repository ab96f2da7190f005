export { boxStats, percentChange, type BoxStats } from './statistics';
