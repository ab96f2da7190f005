export { readState, writeState, type Choices, type FlatState } from './url-state';
export { useUrlState } from './use-url-state';
