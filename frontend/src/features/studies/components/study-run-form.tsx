import { type FormEvent, useState } from 'react';
import { ApiError } from '../../../shared/api';
import { startStudyRun } from '../api/client';
import type { Selection, Study, StudyRun } from '../api/types';
import { experimentRunText, quickSelection, runCount, runCountText, studyColumns } from '../logic/report';

type Kind = 'quick' | 'full';

export interface StudyRunFormProps {
  study: Study;
  /** The run started: show it. */
  onStarted: (run: StudyRun) => void;
}

/**
 * StudyRunForm starts a study run: quick (the recipe's smoke run) or full (every experiment's
 * matrix), either narrowed to some experiments and levels of each axis. Each configuration runs as
 * many times as the recipe says (its experiment's iterations, or the quick run's) unless an
 * iteration count is typed in: only then is one sent.
 */
export function StudyRunForm({ study, onStarted }: StudyRunFormProps) {
  const columns = studyColumns(study);
  const [kind, setKind] = useState<Kind>('quick');
  const [selection, setSelection] = useState<Selection>(() => quickSelection(study));
  // null: the recipe's own iterations, which may differ per experiment (the API's, not sent).
  const [iterations, setIterations] = useState<number | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const [starting, setStarting] = useState(false);
  const count = runCount(study, selection, iterations, kind === 'quick');

  const chooseKind = (next: Kind) => {
    setKind(next);
    setSelection(next === 'quick' ? quickSelection(study) : columns);
    setIterations(null);
  };
  const toggle = (axis: string, level: string, on: boolean) =>
    setSelection((current) => ({
      ...current,
      [axis]: columns[axis].filter((candidate) => (candidate === level ? on : current[axis].includes(candidate))),
    }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setStarting(true);
    setProblems([]);
    // Every axis's levels, also those left whole: a quick run would otherwise take the recipe's.
    startStudyRun(study.id, { quick: kind === 'quick', only: selection, ...(iterations === null ? {} : { iterations }) }).then(
      (run) => {
        setStarting(false);
        onStarted(run);
      },
      (error: Error) => {
        setStarting(false);
        setProblems(
          error instanceof ApiError && error.problems.length > 0
            ? error.problems.map((problem) => problem.msg) // each sentence starts with its field
            : [`The study run did not start: ${error.message}`],
        );
      },
    );
  };

  return (
    <form className="panel study-run-form" aria-label="New study run" onSubmit={submit}>
      <h2>New study run</h2>
      <fieldset className="segmented">
        <legend>Kind of run</legend>
        <label>
          <input type="radio" name="kind" value="quick" checked={kind === 'quick'} onChange={() => chooseKind('quick')} /> Quick
        </label>
        <label>
          <input type="radio" name="kind" value="full" checked={kind === 'full'} onChange={() => chooseKind('full')} /> Full
        </label>
      </fieldset>
      <p role="note" className={kind === 'quick' ? 'notice quick-note' : 'hint'}>
        {kind === 'quick'
          ? 'A quick run is a smoke test: a few configurations that finish fast, once each. It shows that the set-up works, not a result to compare with the study.'
          : `A full run: every configuration chosen below, as many times as the recipe says (each experiment's iterations, below), ${study.parallel} at once. It takes hours.`}
      </p>
      <fieldset className="study-levels">
        <legend>Configurations</legend>
        {Object.entries(columns).map(([axis, levels]) => (
          <fieldset key={axis} className="study-axis">
            <legend>{axis}</legend>
            {levels.map((level) => (
              <label key={level}>
                <input type="checkbox" checked={selection[axis].includes(level)} onChange={(event) => toggle(axis, level, event.target.checked)} />{' '}
                {level}
              </label>
            ))}
          </fieldset>
        ))}
      </fieldset>
      <div className="field">
        <label htmlFor="study-iterations">Iterations</label>
        <input
          id="study-iterations"
          type="number"
          min={1}
          max={1000}
          placeholder="the recipe's"
          aria-describedby="study-iterations-hint"
          value={iterations ?? ''}
          onChange={(event) => setIterations(event.target.value === '' ? null : Math.max(1, Math.round(Number(event.target.value) || 1)))}
        />
        <span id="study-iterations-hint" className="hint">
          Empty: each configuration runs as many times as the recipe says.
        </span>
      </div>
      <p role="status">{runCountText(count, study.parallel)}</p>
      {count.parts.some((part) => part.experiment) && (
        <ul className="study-run-parts" aria-label="Runs per experiment">
          {count.parts.map((part) => (
            <li key={`${part.experiment} ${part.iterations}`}>{experimentRunText(part)}</li>
          ))}
        </ul>
      )}
      {problems.length > 0 && (
        <ul className="field-problems" role="alert">
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
      <button type="submit" disabled={starting || count.configurations === 0}>
        {starting ? 'Starting…' : `Start the ${kind} run`}
      </button>
    </form>
  );
}
