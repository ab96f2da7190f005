import { useId } from 'react';
import { Measure } from '../../../components/help';
import type { RunFidelity as Evidence } from '../api/types';
import { fidelitySentence, fidelityVerdict, formatLateness } from '../logic/fidelity';
import { glossary } from '../logic/glossary';
import { formatNumber } from '../logic/run-format';

export interface RunFidelityProps {
  /** The finished run's fidelity evidence. */
  fidelity: Evidence;
}

/** RunFidelity says whether the host kept up with the run, from what its tools measured. */
export function RunFidelity({ fidelity }: RunFidelityProps) {
  const id = useId();
  const steal = fidelity.cpu_steal_ratio === null ? '' : `, steal ${formatNumber(fidelity.cpu_steal_ratio * 100, 1)} %`;
  return (
    <section className="run-fidelity" aria-labelledby={id}>
      <h3 id={id}>Did the host keep up?</h3>
      <p className={`fidelity fidelity-${fidelityVerdict(fidelity)}`}>{fidelitySentence(fidelity)}</p>
      <dl className="counters">
        <Measure
          label="satlink lateness p99"
          value={formatLateness(fidelity.satlink_lateness_p99_ms, fidelity.satlink_lateness_max_ms)}
          help={glossary.satlinkLateness}
        />
        {fidelity.tunnel_lateness_p99_ms != null && (
          <Measure
            label="Tunnel lateness p99"
            value={formatLateness(fidelity.tunnel_lateness_p99_ms, fidelity.tunnel_lateness_max_ms)}
            help={glossary.tunnelLateness}
          />
        )}
        <Measure label="Host load, highest" value={`${formatNumber(fidelity.load_avg_1m_max, 2)}${steal}`} help={glossary.hostLoad} />
        {fidelity.runs_at_once_mean != null && (
          <Measure
            label="Runs at once"
            value={`${formatNumber(fidelity.runs_at_once_mean, 1)} on average, at most ${fidelity.runs_at_once_max}`}
            help={glossary.runsAtOnce}
          />
        )}
        {fidelity.realtime_threads != null && (
          <Measure
            label="Forwarding threads"
            value={fidelity.realtime_threads ? 'real-time (SCHED_FIFO)' : 'normal priority: the kernel refused SCHED_FIFO'}
            help={glossary.realtimeThreads}
          />
        )}
      </dl>
      {fidelity.problems.length > 0 && (
        <ul className="fidelity-problems">
          {fidelity.problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
