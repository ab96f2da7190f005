export { AxisBottom, AxisLeft, AxisTop, type AxisProps } from './axes';
export { type AxisScale, axisTicks, decades, type Tick, type TickOptions } from './axis-ticks';
export { BoxPlot, type BoxPlotGroup, type BoxPlotProps } from './box-plot';
export { GridRows, type GridRowsProps } from './grid-rows';
export { LineChart, type LineChartProps, type LineSeries } from './line-chart';
export { useWidth } from './use-width';
