import { type FormEvent, useRef, useState } from 'react';
import { NumberField, SubmitRow, TextField, useFieldProblems } from '../../../components/form';
import { createCampaign, type CampaignDetail, type CampaignSpec, type Capabilities, type Lab } from '../../../shared/runs';
import { mayStartCampaigns, mustSignIn, type Session } from '../../../shared/session';
import type { Limits } from '../api/limits';
import { useLab } from '../hooks/use-lab';
import { useLoadedNotice } from '../hooks/use-loaded-notice';
import { useRefusalFocus } from '../hooks/use-refusal-focus';
import { useSubmission } from '../hooks/use-submission';
import { LabChoice } from './lab-choice';
import { Refusal } from './refusal';
import { SignInNotice } from './sign-in-notice';
import { type CampaignChoices, type MatrixRow, campaignPlan, initialCampaignChoices } from '../logic/campaign-request';
import { campaignChoices } from '../logic/clone';
import { formatCount } from '../logic/format';
import { formatValue } from '../logic/parameter-values';
import { campaignProblemsOf, placeProblems } from '../logic/problems';

export interface CampaignFormProps {
  /** What this host can run (GET api/capabilities). */
  capabilities: Capabilities;
  /** The presets (GET api/labs), the base scenarios to choose from. */
  labs: Lab[];
  /** The backend's limits of the fields (from its OpenAPI document). */
  limits: Limits;
  /** Who this browser is and the server's limits, once known: a role that may not start campaigns sees why. */
  session?: Session;
  /** A stored campaign's file to start from (Edit a copy), instead of the default campaign. */
  clone?: CampaignSpec;
  /** Called with each campaign the API accepted. */
  onStarted: (campaign: CampaignDetail) => void;
}

/**
 * CampaignForm starts a campaign: a lab as the base scenario, fixed overrides, a matrix of
 * parameters and their values, iterations. It counts the runs before they start, adds the
 * Hystart setting a matrix over congestion controls needs, and shows the API's refusals beside
 * the field (or matrix parameter) they concern.
 */
export function CampaignForm({ capabilities, labs, limits, clone, onStarted, session }: CampaignFormProps) {
  const usable = labs.filter((lab) => lab.error === null);
  const [choices, setChoices] = useState<CampaignChoices>(
    () =>
      (clone && campaignChoices(clone)) ??
      initialCampaignChoices((usable.find((lab) => lab.name === 'geo-ideal') ?? usable[0])?.name ?? ''),
  );
  const loaded = useLoadedNotice(clone ? `Loaded campaign ${clone.name}: change what you like, then Start campaign.` : null);
  const lab = useLab(choices.lab);
  const scenario = lab.detail?.scenario ?? null;
  const plan = campaignPlan(choices, scenario);
  const { refused, submitting, submit: send, clear } = useSubmission('campaign');
  const typed = useFieldProblems();
  const form = useRef<HTMLFormElement>(null);
  const refusal = useRef<HTMLDivElement>(null);
  useRefusalFocus(form, refusal, refused);
  const signInFirst = session !== undefined && mustSignIn(session.me);
  // A student may not start campaigns unless the instructor's quota lets students: the form says so, disabled.
  const notForThisRole = session !== undefined && !signInFirst && !mayStartCampaigns(session);

  const placed = placeProblems(refused?.problems ?? [], plan.targets);
  const problemsOfField = (name: string) => [...(plan.problems[name] ?? []), ...(placed.byTarget[name] ?? [])];
  // Why nothing would be sent now: the form sends only what it shows.
  const formProblems = [...typed.problems, ...Object.values(plan.problems).flat()];
  const formIsRight = formProblems.length === 0;
  const blockers = [
    ...(capabilities.root ? [] : ['The backend runs as an ordinary user: campaigns need root.']),
    ...(signInFirst ? ['This server wants a sign-in first.'] : []),
    ...(notForThisRole ? ['Students may not start campaigns on this server.'] : []),
    ...(scenario === null ? ['The base scenario has not loaded.'] : []),
    ...formProblems,
  ];
  const update = (patch: Partial<CampaignChoices>) => setChoices((current) => ({ ...current, ...patch }));
  const updateRow = (index: number, patch: Partial<MatrixRow>) =>
    update({ matrix: choices.matrix.map((row, candidate) => (candidate === index ? { ...row, ...patch } : row)) });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (blockers.length > 0 || submitting) return;
    const request = plan.request;
    void send(() => createCampaign(request), (detail) => campaignProblemsOf(detail, request), onStarted);
  };

  return (
    <form className="lab-settings run-form campaign-form" aria-label="New campaign" onSubmit={submit} noValidate ref={form}>
      {signInFirst && <SignInNotice what="campaigns" />}
      {notForThisRole && (
        <p className="notice" role="note">
          Campaigns are the instructor&apos;s on this server: the quota &ldquo;Students may start campaigns&rdquo; is no
          (student_campaigns, set by the instructor). You can open the campaigns the instructor shares; single runs are yours to start.
        </p>
      )}
      {!capabilities.root && (
        <p className="notice" role="note">
          Campaigns need root: their runs build network namespaces and TUN devices, and this backend runs as an ordinary user.
          Stored campaigns can still be opened.
        </p>
      )}
      {loaded}
      <fieldset className="plain" disabled={notForThisRole || signInFirst}>
      <fieldset>
        <legend>Base scenario</legend>
        <LabChoice
          labs={labs}
          lab={lab}
          onChange={(name) => {
            update({ lab: name });
            clear();
          }}
          problems={problemsOfField('lab')}
        />
        <TextField
          label="Fixed overrides"
          rows={3}
          value={choices.fixed}
          placeholder="flows.0.size_bytes=2000000"
          onChange={(fixed) => update({ fixed })}
          hint="Set for every run: one dotted.path=value per line, as satlab run --set takes them."
          problems={problemsOfField('fixed')}
        />
        {plan.hystartArms.map((joint) => (
          <p className="notice" role="note" key={joint.entry}>
            {choices.lab} turns CUBIC&apos;s Hystart {joint.labHystart ? 'on' : 'off'}, which only tcp cubic takes: the matrix runs{' '}
            {joint.replaces.join(' and ')} as arms of {joint.entry}: {joint.arms.map(formatValue).join(', ')}. Each tcp cubic arm keeps
            the lab&apos;s Hystart; the others run with the host&apos;s setting.
          </p>
        ))}
      </fieldset>
      <fieldset>
        <legend>Matrix</legend>
        <p className="hint">
          Each parameter is a dotted path and its values, separated by commas: words, numbers, true, false, null, or objects such as{' '}
          <code>{'{k: 5, z: 100}'}</code>; quote text that holds a comma. Every combination of values is a configuration.
        </p>
        {choices.matrix.map((row, index) => (
          // Rows hold no state of their own: their values come from choices, so the index is a fine key.
          <div key={index} className="matrix-row" role="group" aria-label={`Parameter ${index + 1}`}>
            <TextField
              label={`Path of parameter ${index + 1}`}
              value={row.path}
              placeholder="flows.0.cc"
              onChange={(path) => updateRow(index, { path })}
              problems={problemsOfField(`path-${index}`)}
            />
            <TextField
              label={`Values of parameter ${index + 1}`}
              value={row.values}
              placeholder="cubic, bbr"
              onChange={(values) => updateRow(index, { values })}
              problems={problemsOfField(`values-${index}`)}
            />
            <button
              type="button"
              aria-label={`Remove parameter ${index + 1}`}
              onClick={() => update({ matrix: choices.matrix.filter((_, candidate) => candidate !== index) })}
            >
              Remove
            </button>
          </div>
        ))}
        <button type="button" className="add-parameter" onClick={() => update({ matrix: [...choices.matrix, { path: '', values: '' }] })}>
          Add a parameter
        </button>
      </fieldset>
      <fieldset>
        <legend>Runs</legend>
        <TextField
          label="Name"
          value={choices.name}
          placeholder={choices.lab}
          onChange={(name) => update({ name })}
          hint="Letters, digits, . _ -; the lab's name when blank. Its runs are named name-c<configuration>-i<iteration>."
          problems={problemsOfField('name')}
        />
        <NumberField
          label="Iterations"
          value={choices.iterations}
          {...limits.iterations}
          step={1}
          onChange={(iterations) => update({ iterations })}
          onProblem={typed.reporter('iterations')}
          hint="Runs of each configuration, each iteration with its own seed, shared by its configurations."
          problems={problemsOfField('iterations')}
        />
        <NumberField
          label="Parallel runs"
          value={choices.parallel}
          {...limits.parallel}
          step={1}
          onChange={(parallel) => update({ parallel })}
          onProblem={typed.reporter('parallel')}
          hint={`The backend runs at most ${capabilities.max_concurrent_runs} runs at a time in all. Runs at once share the cores: FEC tunnels slow each other.`}
          problems={problemsOfField('parallel')}
        />
        <NumberField
          label="Seed"
          value={choices.seed}
          {...limits.seed}
          step={1}
          onChange={(seed) => update({ seed })}
          onProblem={typed.reporter('seed')}
          hint="Each iteration's seed derives from it."
          problems={problemsOfField('seed')}
        />
      </fieldset>
      <p className="run-command" role="status">
        {formIsRight
          ? `${formatCount(plan.configurations, 'configuration')} × ${formatCount(choices.iterations, 'iteration')} = ${formatCount(plan.runs, 'run')}`
          : 'No runs: nothing would be sent (see why beside Start campaign).'}
      </p>
      <details>
        <summary>The same campaign as a file</summary>
        <p className="hint">
          JSON is YAML: save it as <code>campaign.yaml</code> and run <code>satlab campaign campaign.yaml</code>.
        </p>
        {formIsRight ? (
          <pre className="scenario-text">{JSON.stringify(plan.request, null, 2)}</pre>
        ) : (
          <p className="hint">Nothing would be sent: see why beside Start campaign.</p>
        )}
      </details>
      </fieldset>
      <SubmitRow label="Start campaign" busyLabel="Starting…" busy={submitting} blockers={blockers} />
      <Refusal what="campaign" failure={refused?.failure} problems={placed.general} signIn={refused?.signIn} ref={refusal} />
    </form>
  );
}
