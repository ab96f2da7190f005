import { memo, useId } from 'react';
import { HelpTip } from '../../../components/help';
import { useResidualCurve } from '../hooks/use-residual-curve';
import { convergenceNote, samplingNote } from '../logic/convergence';
import { formatPercent } from '../logic/format';
import { channelSource } from '../logic/figures';
import { channelGlossary } from '../logic/glossary';
import type { BurstBin } from '../logic/loss-pattern';
import type { ResidualCurveRequest, ResidualPoint } from '../logic/residual-curve';
import { residualEstimate } from '../logic/residual-interval';
import { BurstHistogram } from './burst-histogram';
import { ResidualChart } from './residual-chart';

export interface MonteCarloPanelsProps {
  /** What the Monte-Carlo computes; a new request starts it again. */
  request: ResidualCurveRequest;
  /** The burst lengths of the loss pattern, drawn beside the curve. */
  bins: BurstBin[];
  /** The channel and the sample that drew the bins, the histogram's figure caption. */
  binsSource: string;
  z: number;
  /** Source packets per k asked for. */
  sources: number;
}

/** The redundancy settings of the studies behind satlab, marked in the results. */
const studiedKs = [2, 5, 10];

/**
 * MonteCarloPanels computes the residual-loss curve of a request in Web Workers and shows it as it
 * refines: status and Stop, the chart with its convergence note, the table. The workers' reports
 * re-render these panels alone, not the lab's form and other charts: the page's thread stays free
 * for what a person types.
 */
function MonteCarloPanelsView({ request, bins, binsSource, z, sources }: MonteCarloPanelsProps) {
  const id = useId();
  const curve = useResidualCurve(request);
  const counts = curve.points.map((point) => point.sources);
  const counted = { least: Math.min(...counts, Infinity), most: Math.max(...counts, 0) };
  return (
    <>
      <div className="panel-row">
        <section className="panel" aria-labelledby={`${id}-bursts`}>
          <h2 id={`${id}-bursts`}>Burst lengths</h2>
          <BurstHistogram bins={bins} source={binsSource} />
        </section>
        <section className="panel" aria-labelledby={`${id}-residual`}>
          <h2 id={`${id}-residual`}>Residual loss after S(k,{z})</h2>
          {curve.error && (
            <p className="error" role="alert">
              {curve.error}
            </p>
          )}
          <div className="monte-carlo-status">
            <p role="status" data-packets={curve.points.reduce((total, point) => total + point.packets, 0)}>
              {curve.status === 'computing'
                ? `Computing… ${countedText(counted, sources)} source packets per k`
                : curve.status === 'stopped'
                  ? `Stopped at ${countedText(counted, sources)} source packets per k.`
                  : curve.status === 'done'
                    ? `Done: ${sources.toLocaleString('en')} source packets per k`
                    : ''}
              {curve.packetsPerSecond > 0 &&
                ` · ${Math.round(curve.packetsPerSecond).toLocaleString('en')} packets/s through encoder, channel and decoder, in ${workersText(curve.workers)}`}
            </p>
            {curve.status === 'computing' && (
              <button type="button" onClick={curve.stop}>
                Stop
              </button>
            )}
          </div>
          <ResidualChart
            points={curve.points}
            z={z}
            sources={sources}
            source={`${channelSource(request.channel, request.packetMs)}; S(k,${z}) by Monte-Carlo, ${sources.toLocaleString('en')} source packets per k asked, counted in ${workersText(curve.workers)}`}
          />
          {counted.most > 0 && (
            <p className="convergence-note">
              {convergenceNote(curve.points, curve.status !== 'computing')}{' '}
              {samplingNote(curve.workers, 'seed' in request.channel ? request.channel.seed : undefined)}
            </p>
          )}
        </section>
      </div>
      <section className="panel" aria-labelledby={`${id}-table`}>
        <h2 id={`${id}-table`}>Residual loss, in numbers</h2>
        <ResultsTable points={curve.points} z={z} />
      </section>
    </>
  );
}

export const MonteCarloPanels = memo(MonteCarloPanelsView);

const workersText = (workers: number) => (workers === 1 ? 'a Web Worker' : `${workers} Web Workers`);

/** countedText says how many sources per k are counted: "12,500 of 50,000", or "0–312,500 of …" while the ks differ. */
function countedText({ least, most }: { least: number; most: number }, sources: number): string {
  const low = Number.isFinite(least) ? least : 0;
  const range = low === most ? low.toLocaleString('en') : `${low.toLocaleString('en')}–${most.toLocaleString('en')}`;
  return `${range} of ${sources.toLocaleString('en')}`;
}

function ResultsTable({ points, z }: { points: ResidualPoint[]; z: number }) {
  const headers: [string, string][] = [
    ['Overhead', channelGlossary.overhead],
    ['Channel loss', channelGlossary.channelLoss],
    ['Residual loss', channelGlossary.residualLoss],
    ['95 % interval', channelGlossary.interval],
    ['Sources', channelGlossary.sources],
  ];
  return (
    <div className="table-scroll">
      <table className="results">
        <caption className="visually-hidden">Residual loss after S(k,{z}) for each k</caption>
        <thead>
          <tr>
            <th scope="col">Code</th>
            {headers.map(([header, help]) => (
              <th scope="col" key={header}>
                {header} <HelpTip term={header} text={help} />
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {points.map((point) => {
            const estimate = residualEstimate(point);
            return (
              <tr key={point.k} className={studiedKs.includes(point.k) && z === 100 ? 'studied' : undefined}>
                <th scope="row">
                  S({point.k},{z})
                </th>
                <td>{formatPercent(1 / (point.k + 1))}</td>
                <td>{point.packets === 0 ? '–' : formatPercent(point.packetsLost / point.packets)}</td>
                <td>{point.sources === 0 ? '–' : formatPercent(estimate.residualLoss)}</td>
                <td>{point.sources === 0 ? '–' : `${formatPercent(estimate.lower)} – ${formatPercent(estimate.upper)}`}</td>
                <td>{point.sources.toLocaleString('en')}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
