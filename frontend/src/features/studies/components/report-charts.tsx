import { BoxPlot } from '../../../components/box-plot';
import type { StudyReport } from '../api/types';
import { boxCharts, metricLabel } from '../logic/report';

const seconds = (value: number) => `${value.toFixed(2)} s`;

/**
 * ReportCharts draws satlab's values as box plots, a chart per combination of the varied axes
 * but the last (channel and transport), a box per level of the last (the tunnel), with the
 * published median drawn across each box.
 */
export function ReportCharts({ report }: { report: StudyReport }) {
  const charts = boxCharts(report);
  const metric = metricLabel(report.rows[0]?.metric ?? 'download_time_s');
  if (charts.length === 0) return null;
  return (
    <section className="study-charts" aria-labelledby="study-charts-heading">
      <h3 id="study-charts-heading">satlab's runs beside the published medians</h3>
      <div className="study-chart-grid">
        {charts.map((chart) => (
          <BoxPlot
            key={chart.title}
            title={chart.title}
            groups={chart.groups}
            data={chart.points}
            group={(point) => point.group}
            value={(point) => point.value}
            describe={(point) => `${point.group}: ${seconds(point.value)}`}
            xLabel={chart.boxAxis}
            yLabel={metric}
            formatValue={seconds}
            references={chart.published}
            referenceLabel="published median"
          />
        ))}
      </div>
    </section>
  );
}
