import { BoxPlot } from '../../../components/charts';
import type { StudyReport } from '../api/types';
import { boxCharts, type ExperimentTable, formatWithUnit, metricLabel } from '../logic/report';

/** reportSource names the report the charts draw, for their figures' captions: the study, when and what made it, its study runs. */
function reportSource(report: StudyReport): string {
  const runs = report.campaigns.map((campaign) => campaign.campaign_id);
  const of = runs.length === 0 ? '' : runs.length <= 3 ? `, study runs ${runs.join(', ')}` : `, ${runs.length} study runs`;
  const made = `satlab ${report.satlab}${report.git ? `, git ${report.git}` : ''}`;
  return `satlab study ${report.study}: report of ${report.generated_at.slice(0, 10)} (${made})${of}`;
}

export interface ReportChartsProps {
  report: StudyReport;
  /** The experiment whose configurations and metrics to draw. */
  table: ExperimentTable;
}

/**
 * ReportCharts draws one experiment's values as box plots, per metric a chart per combination of
 * the varied axes but the last (channel and transport), a box per level of the last (the tunnel),
 * with the published median (or mean) drawn across each box.
 */
export function ReportCharts({ report, table }: ReportChartsProps) {
  const charts = table.metrics.flatMap((metric) => boxCharts(report, metric, table.entries)).filter((chart) => chart.points.length > 0);
  if (charts.length === 0) return null;
  const several = table.metrics.length > 1;
  const headingId = `study-charts-heading${table.name ? `-${table.name}` : ''}`;
  return (
    <section className="study-charts" aria-labelledby={headingId}>
      <h3 id={headingId}>satlab's runs beside the published figures</h3>
      <div className="study-chart-grid">
        {charts.map((chart) => (
          <BoxPlot
            key={`${chart.metric} ${chart.title}`}
            title={several ? `${metricLabel(chart.metric)}: ${chart.title}` : chart.title}
            source={reportSource(report)}
            pointLabel="a run"
            groups={chart.groups}
            data={chart.points}
            group={(point) => point.group}
            value={(point) => point.value}
            describe={(point) => `${point.group}: ${point.censored ? 'at least ' : ''}${formatWithUnit(chart.metric)(point.value)}`}
            xLabel={chart.boxAxis}
            yLabel={metricLabel(chart.metric)}
            formatValue={formatWithUnit(chart.metric)}
            references={chart.published}
            referenceLabel="published median"
            censored={(point) => point.censored}
            censoredLabel="a run the time limit stopped (at least)"
          />
        ))}
      </div>
    </section>
  );
}
