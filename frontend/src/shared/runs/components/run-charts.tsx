import { schemeTableau10 } from 'd3';
import { HelpTip } from '../../../components/help';
import { LineChart } from '../../../components/charts';
import type { ChartSpec, Point } from '../logic/series';

export interface RunChartsProps {
  /** The charts of one iteration (runCharts). */
  charts: ChartSpec[];
  /** The time axis every chart shares, in seconds. */
  xDomain: [number, number];
  /** Where the samples come from, each chart's figure caption: "satlab run r42 (geo-ideal), iteration 0". */
  source: string;
}

// Lines that mean the same thing wherever they appear keep one colour; flows take the palette.
const meaningColours: Record<string, string> = {
  forward: '#0b5cad',
  return: '#8d969e',
  buffer: '#e67e22',
  channel: '#c62828',
  lost: '#c62828',
  recovered: '#1b7f3a',
};

const colourOf = (key: string, index: number) => meaningColours[key] ?? schemeTableau10[index % schemeTableau10.length];

const significant = (value: number) => (value === 0 || Math.abs(value) >= 100 ? value.toFixed(0) : value.toPrecision(3));

/** RunCharts draws a run's live or stored samples, every chart on the same time axis. */
export function RunCharts({ charts, xDomain, source }: RunChartsProps) {
  return (
    <div className="chart-grid">
      {charts.map((chart) => (
        <LineChart<Point>
          key={chart.id}
          title={chart.title}
          source={source}
          help={<HelpTip term={chart.title} text={chart.help} />}
          series={chart.series.map((series, index) => ({
            key: series.key,
            label: series.label,
            colour: colourOf(series.key, index),
            data: series.points,
            unscaled: series.unscaled,
          }))}
          x={(point) => point.t_s}
          y={(point) => point.value}
          xLabel="Time since the flows started, s"
          yLabel={chart.yLabel}
          xDomain={xDomain}
          yMinimumTop={chart.yMinimumTop}
          formatValue={(value) => `${significant(value)} ${chart.unit}`}
          formatX={(seconds) => `t = ${seconds.toFixed(1)} s`}
        />
      ))}
    </div>
  );
}
