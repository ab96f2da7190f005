import { useId } from 'react';
import { HeaderCell, Measure } from '../../../components/help';
import { csvKinds, csvUrl } from '../api/csv-urls';
import type { RunResult } from '../api/types';
import { flowRoles, formatConvergence, formatPercent, formatStartup } from '../logic/flow-metrics';
import { formatNumber } from '../logic/run-format';
import { glossary } from '../logic/glossary';
import { hopNames, pepSegments } from '../logic/hops';

export interface RunSummaryProps {
  runId: string;
  /** The finished run's result. */
  result: RunResult;
  /** Whether the run had an FEC tunnel (it then has tunnel samples to export). */
  withTunnel: boolean;
}

const percent = (fraction: number) => `${(fraction * 100).toFixed(2)} %`;

/** RunSummary gives a finished run's figures per flow, its fairness and FEC, and its CSV exports. */
export function RunSummary({ runId, result, withTunnel }: RunSummaryProps) {
  const id = useId();
  const manyIterations = result.iterations.length > 1;
  const withErrors = result.flows.some((flow) => flow.error !== null);
  const fairness = result.iterations.filter((iteration) => iteration.jain_index !== null);
  const withFirstByte = result.flows.some((flow) => flow.time_to_first_byte_ms != null);
  const throughPep = result.flows.filter((flow) => flow.pep_mode !== undefined);
  const fec = result.iterations.flatMap((iteration) =>
    (['forward', 'return'] as const).flatMap((direction) => {
      const counters = iteration.fec?.[direction];
      return counters ? [{ iteration: iteration.iteration, direction, ...counters }] : [];
    }),
  );
  return (
    <div className="run-summary">
      <h3 id={`${id}-flows`}>Summary per flow</h3>
      {fairness.length > 0 && (
        <dl className="counters">
          {fairness.map((iteration) => (
            <Measure
              key={iteration.iteration}
              label={manyIterations ? `Jain's fairness index, iteration ${iteration.iteration}` : "Jain's fairness index"}
              value={formatNumber(iteration.jain_index, 3)}
              help={glossary.jain}
            />
          ))}
        </dl>
      )}
      {result.flows.length === 0 && <p className="muted">No flow finished, so there are no figures per flow.</p>}
      <div className="table-scroll" hidden={result.flows.length === 0}>
        <table className="results" aria-labelledby={`${id}-flows`}>
          <thead>
            <tr>
              {manyIterations && <th scope="col">Iteration</th>}
              <th scope="col">Flow</th>
              <th scope="col">Transport</th>
              <th scope="col">CC</th>
              <HeaderCell label="Direction" help={glossary.direction} />
              <th scope="col">Received, bytes</th>
              <HeaderCell label="Download time, s" help={glossary.downloadTime} />
              {withFirstByte && <HeaderCell label="Time to first byte, ms" help={glossary.timeToFirstByte} />}
              <HeaderCell label="Goodput, Mbit/s" help={glossary.goodput} />
              <HeaderCell label="Retransmissions, packets" help={glossary.retransmissions} />
              <HeaderCell label="Mean RTT, ms" help={glossary.rtt} />
              <HeaderCell label="Power, Mbit/s per s of RTT" help={glossary.power} />
              <HeaderCell label="Link utilisation, %" help={glossary.utilisation} />
              <HeaderCell label="Start-up, s" help={glossary.startup} />
              <HeaderCell label="Start-up goodput, Mbit/s" help={glossary.startupGoodput} />
              <HeaderCell label="Steady goodput, Mbit/s" help={glossary.steadyGoodput} />
              <HeaderCell label="Start-up RTT, ms" help={glossary.startupRtt} />
              <HeaderCell label="Steady RTT, ms" help={glossary.steadyRtt} />
              <HeaderCell label="Start-up retransmissions, packets" help={glossary.startupRetransmissions} />
              <HeaderCell label="Steady retransmissions, packets" help={glossary.steadyRetransmissions} />
              <HeaderCell label="Latecomer convergence, s" help={glossary.convergence} />
              <HeaderCell label="Role" help={glossary.role} />
              {withErrors && <th scope="col">Error</th>}
            </tr>
          </thead>
          <tbody>
            {result.flows.map((flow) => (
              <tr key={`${flow.iteration}/${flow.flow}`}>
                {manyIterations && <td>{flow.iteration}</td>}
                <th scope="row">flow {flow.flow}</th>
                <td>{flow.transport}</td>
                <td>{flow.cc}</td>
                <td>{flow.direction}</td>
                <td>{flow.bytes?.toLocaleString('en') ?? '–'}</td>
                <td>{formatNumber(flow.download_time_s, 3)}</td>
                {withFirstByte && <td>{formatNumber(flow.time_to_first_byte_ms, 1)}</td>}
                <td>{formatNumber(flow.goodput_mbps, 3)}</td>
                <td>{flow.retransmissions ?? '–'}</td>
                <td>{formatNumber(flow.mean_rtt_ms, 1)}</td>
                <td>{formatNumber(flow.power_mbps_per_s, 2)}</td>
                <td>{formatPercent(flow.link_utilisation_ratio)}</td>
                <td>{formatStartup(flow)}</td>
                <td>{formatNumber(flow.startup_goodput_mbps, 3)}</td>
                <td>{formatNumber(flow.steady_goodput_mbps, 3)}</td>
                <td>{formatNumber(flow.startup_mean_rtt_ms, 1)}</td>
                <td>{formatNumber(flow.steady_mean_rtt_ms, 1)}</td>
                <td>{flow.startup_retransmissions ?? '–'}</td>
                <td>{flow.steady_retransmissions ?? '–'}</td>
                <td>{formatConvergence(flow)}</td>
                <td>{flowRoles(flow)}</td>
                {withErrors && <td className="flow-error">{flow.error ?? ''}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {throughPep.length > 0 && (
        <>
          <h3 id={`${id}-pep`}>Through the split-TCP PEP</h3>
          <div className="table-scroll">
            <table className="results" aria-labelledby={`${id}-pep`}>
              <thead>
                <tr>
                  {manyIterations && <th scope="col">Iteration</th>}
                  <th scope="col">Flow</th>
                  <HeaderCell label="Connections split" help={glossary.pepSegments} />
                  {pepSegments.map((segment) => (
                    <HeaderCell key={segment} label={`${hopNames[segment]} segment: bytes / retransmissions`} help={glossary.pepSegments} />
                  ))}
                  <HeaderCell label="Terminal PEP pipe peak, bytes" help={glossary.pepPipe} />
                  <HeaderCell label="Gateway PEP pipe peak, bytes" help={glossary.pepPipe} />
                </tr>
              </thead>
              <tbody>
                {throughPep.map((flow) => (
                  <tr key={`${flow.iteration}/${flow.flow}`}>
                    {manyIterations && <td>{flow.iteration}</td>}
                    <th scope="row">flow {flow.flow}</th>
                    <td>{flow.pep_connections ?? '–'}</td>
                    {([
                      [flow.pep_client_bytes, flow.pep_client_retransmissions],
                      [flow.pep_satellite_bytes, flow.pep_satellite_retransmissions],
                      [flow.pep_server_bytes, flow.pep_server_retransmissions],
                    ] as const).map(([bytes, retransmissions], index) => (
                      <td key={index}>
                        {bytes?.toLocaleString('en') ?? '–'} / {retransmissions ?? '–'}
                      </td>
                    ))}
                    <td>{flow.pep_terminal_pipe_peak_bytes?.toLocaleString('en') ?? '–'}</td>
                    <td>{flow.pep_gateway_pipe_peak_bytes?.toLocaleString('en') ?? '–'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      {fec.length > 0 && (
        <>
          <h3 id={`${id}-fec`}>FEC tunnel</h3>
          <div className="table-scroll">
            <table className="results" aria-labelledby={`${id}-fec`}>
              <thead>
                <tr>
                  {manyIterations && <th scope="col">Iteration</th>}
                  <th scope="col">Direction</th>
                  <HeaderCell label="Sources, packets" help={glossary.sources} />
                  <HeaderCell label="Repairs, packets" help={glossary.repairs} />
                  <HeaderCell label="Lost, packets" help={glossary.lost} />
                  <HeaderCell label="Rebuilt, packets" help={glossary.rebuilt} />
                  <HeaderCell label="Residual loss, % of sources" help={glossary.residualLoss} />
                </tr>
              </thead>
              <tbody>
                {fec.map((row) => (
                  <tr key={`${row.iteration}/${row.direction}`}>
                    {manyIterations && <td>{row.iteration}</td>}
                    <th scope="row">{row.direction}</th>
                    <td>{row.sources}</td>
                    <td>{row.repairs}</td>
                    <td>{row.lost}</td>
                    <td>{row.recovered}</td>
                    <td>{percent(row.residual_loss)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      <h3 id={`${id}-csv`}>Download as CSV</h3>
      <ul className="csv-links" aria-labelledby={`${id}-csv`}>
        {csvKinds
          .filter(({ kind }) => (withTunnel || kind !== 'tunnel-samples') && (throughPep.length > 0 || kind !== 'pep-samples'))
          .map(({ kind, label, what }) => (
            <li key={kind}>
              <a href={csvUrl(runId, kind)} download={`satlab-${runId}-${kind}.csv`}>
                {label} CSV
              </a>{' '}
              <span className="muted">({what})</span>
            </li>
          ))}
      </ul>
    </div>
  );
}
