import { type FormEvent, useId, useRef, useState } from 'react';
import { FieldProblems, describedBy, NumberField, SelectField, SubmitRow, useFieldProblems } from '../../../components/form';
import { createRun, type Capabilities, type Lab, type Run, type Scenario } from '../../../shared/runs';
import { heldToStudentQuotas, mustSignIn, type Session } from '../../../shared/session';
import type { Limits } from '../api/limits';
import { useLab } from '../hooks/use-lab';
import { useLoadedNotice } from '../hooks/use-loaded-notice';
import { useRefusalFocus } from '../hooks/use-refusal-focus';
import { useSubmission } from '../hooks/use-submission';
import { cloneChoices } from '../logic/clone';
import { LabChoice } from './lab-choice';
import { Refusal } from './refusal';
import { SignInNotice } from './sign-in-notice';
import { flowQuotaProblems } from '../logic/quota-check';
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
import { type ProblemTarget, placeProblems, problemsOf } from '../logic/problems';

export interface RunFormProps {
  /** What this host can run (GET api/capabilities). */
  capabilities: Capabilities;
  /** The presets (GET api/labs). */
  labs: Lab[];
  /** The backend's limits of the fields (from its OpenAPI document). */
  limits: Limits;
  /** A stored run to start from (Edit a copy): its lab, and the scenario it ran. */
  clone?: { runId: string; lab: string; scenario: Scenario };
  /** Called with each run the API accepted. */
  onStarted: (run: Run) => void;
  /** Who this browser is and the server's limits, once known: a student's quotas are checked before sending. */
  session?: Session;
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
export function RunForm({ capabilities, labs, limits, clone, onStarted, session }: RunFormProps) {
  const id = useId();
  const usable = labs.filter((lab) => lab.error === null);
  const [labName, setLabName] = useState(
    () => clone?.lab ?? (usable.find((lab) => lab.name === 'geo-ideal') ?? usable[0])?.name ?? '',
  );
  const lab = useLab(labName);
  const scenario = lab.detail?.scenario ?? null;
  // Edits belong to the lab they were made on: another lab starts from its own values.
  const [edited, setEdited] = useState<{ lab: string; choices: RunChoices } | null>(null);
  const unedited = scenario && (clone?.lab === labName ? cloneChoices(scenario, clone.scenario) : labChoices(scenario));
  const choices = edited?.lab === labName ? edited.choices : unedited;
  const loaded = useLoadedNotice(
    clone ? `Loaded run ${clone.runId}: ${clone.lab} with its changes below. Change what you like, then Run.` : null,
  );
  const { refused, submitting, submit: send, clear } = useSubmission('run');
  const typed = useFieldProblems();
  const form = useRef<HTMLFormElement>(null);
  const refusal = useRef<HTMLDivElement>(null);
  useRefusalFocus(form, refusal, refused);

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
  // A student's quotas, from the server's limits: beside the field before anything is sent.
  const quotaProblems =
    session && heldToStudentQuotas(session.me) && choices && scenario
      ? flowQuotaProblems({ sizeBytes: choices.sizeBytes, durationS: scenario.flows[0].duration_s ?? null }, session.limits)
      : [];
  const problemsOfField = (name: string) => [...(name === 'size' ? quotaProblems : []), ...(placed.byTarget[name] ?? [])];
  const signInFirst = session !== undefined && mustSignIn(session.me);
  const transports = capabilities.transports;
  const transport = transports.find((candidate) => candidate.name === choices?.transport);
  // Why nothing would be sent now: the form sends only what it shows.
  const blockers = [
    ...(capabilities.root ? [] : ['The backend runs as an ordinary user: runs need root.']),
    ...(signInFirst ? ['This server wants a sign-in first.'] : []),
    ...quotaProblems,
    ...(choices === null ? ['The lab has not loaded.'] : []),
    ...typed.problems,
    ...extra.problems,
  ];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (blockers.length > 0 || submitting) return;
    void send(() => createRun(labName, overrides, { page: 'experiments' }), problemsOf, onStarted);
  };

  return (
    <form className="lab-settings run-form" aria-label="New run" onSubmit={submit} noValidate ref={form}>
      {signInFirst && <SignInNotice what="runs" />}
      {!capabilities.root && (
        <p className="notice" role="note">
          Runs need root: they build network namespaces and TUN devices, and this backend runs as an ordinary user. Start it as
          root (<code>sudo make run</code>) to run experiments; stored runs can still be opened below.
        </p>
      )}
      {loaded}
      <fieldset>
        <legend>Lab</legend>
        <LabChoice
          labs={labs}
          lab={lab}
          onChange={(name) => {
            setLabName(name);
            clear();
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
              {...limits.sizeBytes}
              step={1}
              onChange={(sizeBytes) => update({ sizeBytes })}
              onProblem={typed.reporter('size')}
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
              {...limits.flowCount}
              step={1}
              onChange={(count) => update({ count })}
              onProblem={typed.reporter('count')}
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
                  {...limits.tunnelK}
                  // The tunnel refuses k > z: a repair covers the last z sources.
                  max={Math.min(limits.tunnelK.max ?? Infinity, choices.tunnel.z)}
                  step={1}
                  onChange={(k) => choices.tunnel && update({ tunnel: { ...choices.tunnel, k } })}
                  onProblem={typed.reporter('k')}
                  hint={`Overhead 1/(k+1) = ${(100 / (choices.tunnel.k + 1)).toFixed(1)} %; at most z, the sources a repair covers.`}
                  problems={problemsOfField('k')}
                />
                <NumberField
                  label="z, window size"
                  value={choices.tunnel.z}
                  {...limits.tunnelZ}
                  step={1}
                  onChange={(z) => choices.tunnel && update({ tunnel: { ...choices.tunnel, z } })}
                  onProblem={typed.reporter('z')}
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
            {blockers.length === 0 ? (
              <>
                The same run from a shell: <code>{commandLine(labName, overrides)}</code>
              </>
            ) : (
              'Nothing would be sent: see why beside the Run button.'
            )}
          </p>
        </>
      )}
      <SubmitRow label="Run" busyLabel="Starting…" busy={submitting} blockers={blockers} />
      <Refusal what="run" failure={refused?.failure} problems={placed.general} signIn={refused?.signIn} ref={refusal} />
    </form>
  );
}
