import { useId, useMemo } from 'react';
import { HeaderCell, Measure } from '../../../components/help';
import { RunCharts, describeForwardChannel, describeScenario, formatNumber, glossary, lastTime, runCharts } from '../../../shared/runs';
import { getReference } from '../api/client';
import type { ReferenceRun } from '../api/types';
import { useLoaded } from '../hooks/use-loaded';
import { linkShare } from '../logic/link-share';

const linkShareHelp =
  'The flow’s goodput as a share of the forward link’s rate: how much of the bottleneck it used over its whole transfer, start-up included.';

const madeOn = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString().slice(0, 10);

/** ReferenceRunView charts the reference run shipped with a sheet, with the console's charts, and sums it up. */
export function ReferenceRunView({ id }: { id: string }) {
  const reference = useLoaded(id, () => getReference(id));
  if (reference.status === 'loading') return <p role="status">Loading the reference run {id}…</p>;
  if (reference.status === 'failed') {
    return (
      <p className="error" role="alert">
        The reference run did not load: {reference.message}.
      </p>
    );
  }
  return <ReferenceRunFigures reference={reference.value} />;
}

function ReferenceRunFigures({ reference }: { reference: ReferenceRun }) {
  const headingId = useId();
  const { scenario, result, samples, provenance } = reference;
  const charts = useMemo(() => runCharts(samples, 0, scenario), [samples, scenario]);
  const forwardChannel = describeForwardChannel(scenario);
  const iteration = result.iterations[0];
  const fec = iteration?.fec?.forward;
  return (
    <section className="reference-run" aria-labelledby={headingId} data-reference={reference.reference}>
      <h4 id={headingId}>Reference run {reference.run_id}, shipped with the sheet</h4>
      <p className="run-config">{describeScenario(scenario)}</p>
      {forwardChannel && <p className="run-config">{forwardChannel}</p>}
      <p className="muted">
        Made on {madeOn(reference.made_at)} with satlab {String(provenance.satlab)}, git {String(provenance.git)}; kernel{' '}
        {String(provenance.kernel)}, {String(provenance.cpus)} CPUs: {reference.command}
      </p>
      {result.status !== 'done' && (
        <p className="error" role="alert">
          This reference run ended {result.status}: {result.error}
        </p>
      )}
      <dl className="counters">
        {iteration?.jain_index !== null && iteration?.jain_index !== undefined && (
          <Measure label="Jain's fairness index" value={formatNumber(iteration.jain_index, 3)} help={glossary.jain} />
        )}
        {fec && (
          <>
            <Measure label="FEC: lost on the link" value={`${fec.lost} packets`} help={glossary.lost} />
            <Measure label="FEC: rebuilt" value={`${fec.recovered} packets`} help={glossary.rebuilt} />
            <Measure label="FEC: residual loss" value={`${(fec.residual_loss * 100).toFixed(2)} %`} help={glossary.residualLoss} />
          </>
        )}
      </dl>
      <div className="table-scroll">
        <table className="results">
          <caption className="visually-hidden">The reference run's figures per flow</caption>
          <thead>
            <tr>
              <th scope="col">Flow</th>
              <th scope="col">Starts at, s</th>
              <HeaderCell label="Download time, s" help={glossary.downloadTime} />
              <HeaderCell label="Goodput, Mbit/s" help={glossary.goodput} />
              <HeaderCell label="Share of the forward link, %" help={linkShareHelp} />
              <HeaderCell label="Retransmissions, packets" help={glossary.retransmissions} />
              <HeaderCell label="Mean RTT, ms" help={glossary.rtt} />
            </tr>
          </thead>
          <tbody>
            {result.flows.map((flow) => {
              const share = linkShare(flow, scenario);
              return (
                <tr key={flow.flow}>
                  <th scope="row">
                    flow {flow.flow} ({flow.transport} {flow.cc})
                  </th>
                  <td>{formatNumber(flow.start_s, 0)}</td>
                  <td>{formatNumber(flow.download_time_s, 2)}</td>
                  <td>{formatNumber(flow.goodput_mbps, 2)}</td>
                  <td>{share === null ? '–' : formatNumber(share * 100, 1)}</td>
                  <td>{flow.retransmissions ?? '–'}</td>
                  <td>{formatNumber(flow.mean_rtt_ms, 0)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <RunCharts
        charts={charts}
        xDomain={[0, Math.max(lastTime(samples, 0) ?? 0, 1)]}
        source={`satlab run ${reference.run_id}, iteration 0: the reference run of a lab sheet`}
      />
    </section>
  );
}
