export { HeaderCell, type HeaderCellProps } from './header-cell';
export { HelpTip, type HelpTipProps } from './help-tip';
export { Measure, type MeasureProps } from './measure';
