import { type FormEvent, useId, useState } from 'react';
import { FieldProblems, describedBy } from '../../../components/field-problems';
import { NumberField } from '../../../components/number-field';
import { SelectField } from '../../../components/select-field';
import { ApiError, createRun } from '../api/client';
import type { Capabilities, Lab, Run } from '../api/types';
import { useLab } from '../hooks/use-lab';
import { LabChoice } from './lab-choice';
import { Refusal } from './refusal';
import { formatBytes } from '../logic/format';
import {
  type RunChoices,
  commandLine,
  hystartApplies,
  labChoices,
  overridesFor,
  parseExtra,
  switchTransport,
} from '../logic/overrides';
import { type Problem, type ProblemTarget, placeProblems, problemsOf } from '../logic/problems';

export interface RunFormProps {
  /** What this host can run (GET api/capabilities). */
  capabilities: Capabilities;
  /** The presets (GET api/labs). */
  labs: Lab[];
  /** Called with each run the API accepted. */
  onStarted: (run: Run) => void;
}

/** The redundancy settings of the studies behind satlab. */
const tunnelPresets = [
  { k: 10, z: 100 },
  { k: 5, z: 100 },
  { k: 2, z: 100 },
];

const hystartOptions = [
  { value: 'host', label: "the host's setting" },
  { value: 'on', label: 'on' },
  { value: 'off', label: 'off' },
] as const;

const hystartValue = (hystart: boolean | null) => (hystart === null ? 'host' : hystart ? 'on' : 'off');

/**
 * RunForm starts a run of a lab: the lab's own values in the controls, the changes sent as the
 * API's dotted.path=value overrides (and shown as the same satlab command), and the API's refusals
 * beside the control of the field they name.
 */
export function RunForm({ capabilities, labs, onStarted }: RunFormProps) {
  const id = useId();
  const usable = labs.filter((lab) => lab.error === null);
  const [labName, setLabName] = useState(() => (usable.find((lab) => lab.name === 'geo-ideal') ?? usable[0])?.name ?? '');
  const lab = useLab(labName);
  const scenario = lab.detail?.scenario ?? null;
  // Edits belong to the lab they were made on: another lab starts from its own values.
  const [edited, setEdited] = useState<{ lab: string; choices: RunChoices } | null>(null);
  const choices = scenario ? (edited?.lab === labName ? edited.choices : labChoices(scenario)) : null;
  const [refused, setRefused] = useState<{ problems: Problem[]; failure?: string } | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const update = (patch: Partial<RunChoices>) => choices && setEdited({ lab: labName, choices: { ...choices, ...patch } });
  const extra = parseExtra(choices?.extra ?? '');
  const overrides = scenario && choices ? overridesFor(scenario, choices) : [];
  // The controls on show, and the paths they set. The extra lines come first: sent last, they
  // override the controls, so a problem with a path they set comes from them.
  const targets: ProblemTarget[] = [
    { name: 'extra', paths: extra.paths },
    { name: 'lab', paths: ['lab'] },
    { name: 'transport', paths: ['flows.0.transport'] },
    { name: 'cc', paths: ['flows.0.cc'] },
    ...(choices && hystartApplies(choices.transport, choices.cc) ? [{ name: 'hystart', paths: ['flows.0.hystart'] }] : []),
    { name: 'size', paths: ['flows.0.size_bytes', 'flows.0.duration_s'] },
    { name: 'count', paths: ['flows.0.count'] },
    ...(choices?.tunnel ? [{ name: 'k', paths: ['tunnel.k'] }, { name: 'z', paths: ['tunnel.z'] }] : []),
    { name: 'tunnel', paths: ['tunnel'] },
  ];
  const placed = placeProblems(refused?.problems ?? [], targets);
  const problemsOfField = (name: string) => placed.byTarget[name] ?? [];
  const transports = capabilities.transports;
  const transport = transports.find((candidate) => candidate.name === choices?.transport);
  const canRun = capabilities.root && choices !== null && extra.problems.length === 0 && !submitting;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!canRun) return;
    setSubmitting(true);
    try {
      const run = await createRun(labName, overrides);
      setRefused(null);
      onStarted(run);
    } catch (error) {
      setRefused(
        error instanceof ApiError && error.problems.length > 0
          ? { problems: problemsOf(error.problems) }
          : { problems: [], failure: `The run did not start: ${(error as Error).message}` },
      );
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form className="lab-settings run-form" aria-label="New run" onSubmit={submit} noValidate>
      {!capabilities.root && (
        <p className="notice" role="note">
          Runs need root: they build network namespaces and TUN devices, and this backend runs as an ordinary user. Start it as
          root (<code>sudo make run</code>) to run experiments; stored runs can still be opened below.
        </p>
      )}
      <Refusal what="run" failure={refused?.failure} problems={placed.general} />
      <fieldset>
        <legend>Lab</legend>
        <LabChoice
          labs={labs}
          lab={lab}
          onChange={(name) => {
            setLabName(name);
            setRefused(null);
          }}
          problems={problemsOfField('lab')}
        />
      </fieldset>
      {choices && scenario && (
        <>
          <fieldset>
            <legend>{scenario.flows.length > 1 ? 'First flow group' : 'Flows'}</legend>
            <SelectField
              label="Transport"
              value={choices.transport}
              options={transports.map((candidate) => ({
                value: candidate.name,
                label: candidate.available ? candidate.display_name : `${candidate.display_name} (unavailable: ${candidate.problem})`,
                disabled: !candidate.available,
              }))}
              onChange={(name) =>
                update(switchTransport(choices, name, transports.find((candidate) => candidate.name === name)?.congestion_controls ?? []))
              }
              problems={problemsOfField('transport')}
            />
            <SelectField
              label="Congestion control"
              value={choices.cc}
              options={(transport?.congestion_controls ?? [choices.cc]).map((cc) => ({ value: cc, label: cc }))}
              onChange={(cc) => update({ cc })}
              problems={problemsOfField('cc')}
            />
            {hystartApplies(choices.transport, choices.cc) && (
              <SelectField
                label="CUBIC Hystart"
                value={hystartValue(choices.hystart)}
                options={hystartOptions}
                onChange={(value) => update({ hystart: value === 'host' ? null : value === 'on' })}
                hint="A host-wide setting, set for the run and restored after it."
                problems={problemsOfField('hystart')}
              />
            )}
            <NumberField
              label="Size, bytes"
              value={choices.sizeBytes ?? 0}
              min={1}
              max={10 * 2 ** 30}
              step={1}
              onChange={(sizeBytes) => update({ sizeBytes })}
              hint={
                choices.sizeBytes === null
                  ? `The lab's flow runs for ${scenario.flows[0].duration_s} s; a size replaces the duration.`
                  : formatBytes(choices.sizeBytes)
              }
              problems={problemsOfField('size')}
            />
            <NumberField
              label="Concurrent flows"
              value={choices.count}
              min={1}
              max={16}
              step={1}
              onChange={(count) => update({ count })}
              hint="Two or more give Jain's fairness index."
              problems={problemsOfField('count')}
            />
          </fieldset>
          <fieldset>
            <legend>FEC tunnel</legend>
            <div className="check-field">
              <input
                id={`${id}-tunnel`}
                type="checkbox"
                checked={choices.tunnel !== null}
                disabled={!capabilities.fec_tunnel}
                onChange={(event) => update({ tunnel: event.target.checked ? (scenario.tunnel ?? { k: 5, z: 100 }) : null })}
                aria-describedby={describedBy(problemsOfField('tunnel').length > 0 && `${id}-tunnel-problems`)}
              />
              <label htmlFor={`${id}-tunnel`}>Protect the path with S(k,z)</label>
            </div>
            <FieldProblems id={`${id}-tunnel-problems`} problems={problemsOfField('tunnel')} />
            {!capabilities.fec_tunnel && <small className="hint">swf-tunnel is not built on this host (make build-native).</small>}
            {choices.tunnel && (
              <>
                <div className="preset-buttons" role="group" aria-label="Redundancy presets">
                  {tunnelPresets.map((preset) => (
                    <button
                      key={preset.k}
                      type="button"
                      aria-pressed={choices.tunnel?.k === preset.k && choices.tunnel?.z === preset.z}
                      onClick={() => update({ tunnel: preset })}
                    >
                      S({preset.k},{preset.z})
                    </button>
                  ))}
                </div>
                <NumberField
                  label="k, sources per repair"
                  value={choices.tunnel.k}
                  min={1}
                  max={1000}
                  step={1}
                  onChange={(k) => choices.tunnel && update({ tunnel: { ...choices.tunnel, k } })}
                  hint={`Overhead 1/(k+1) = ${(100 / (choices.tunnel.k + 1)).toFixed(1)} %`}
                  problems={problemsOfField('k')}
                />
                <NumberField
                  label="z, window size"
                  value={choices.tunnel.z}
                  min={1}
                  max={1000}
                  step={1}
                  onChange={(z) => choices.tunnel && update({ tunnel: { ...choices.tunnel, z } })}
                  problems={problemsOfField('z')}
                />
              </>
            )}
          </fieldset>
          <fieldset>
            <legend>Anything else</legend>
            <div className="field">
              <label htmlFor={`${id}-extra`}>More overrides</label>
              <textarea
                id={`${id}-extra`}
                rows={3}
                spellCheck={false}
                value={choices.extra}
                placeholder="path.forward.channel.model=bernoulli"
                onChange={(event) => update({ extra: event.target.value })}
                aria-invalid={extra.problems.length + problemsOfField('extra').length > 0 || undefined}
                aria-describedby={describedBy(
                  `${id}-extra-hint`,
                  extra.problems.length + problemsOfField('extra').length > 0 && `${id}-extra-problems`,
                )}
              />
              <small id={`${id}-extra-hint`} className="hint">
                One dotted.path=value per line, as <code>satlab run --set</code> takes them, e.g. path.forward.channel.loss=0.01.
              </small>
              <FieldProblems id={`${id}-extra-problems`} problems={[...extra.problems, ...problemsOfField('extra')]} />
            </div>
          </fieldset>
          <p className="run-command">
            The same run from a shell: <code>{commandLine(labName, overrides)}</code>
          </p>
        </>
      )}
      <button type="submit" className="primary" disabled={!canRun}>
        {submitting ? 'Starting…' : 'Run'}
      </button>
    </form>
  );
}
