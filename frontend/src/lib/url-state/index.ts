export { readState, type Choices, type FlatState } from './url-state';
export { useUrlState } from './use-url-state';
