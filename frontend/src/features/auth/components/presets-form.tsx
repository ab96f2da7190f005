import { type FormEvent, useEffect, useId, useState } from 'react';
import { SubmitRow } from '../../../components/form';
import { getPresets, type Preset, setEnabledLabs } from '../api/client';

export interface PresetsFormProps {
  /** The presets students may run now (GET api/class); null: every preset. */
  enabled: string[] | null;
  /** Called after the server took the choice. */
  onSaved: () => void;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * PresetsForm chooses the presets students may run: every one (those added later too), or those
 * ticked. It sends what it shows, and shows what the server then applies.
 */
export function PresetsForm({ enabled, onSaved }: PresetsFormProps) {
  const id = useId();
  const [presets, setPresets] = useState<Preset[] | null>(null);
  const [every, setEvery] = useState(enabled === null);
  const [chosen, setChosen] = useState<string[]>(enabled ?? []);
  const [saving, setSaving] = useState(false);
  const [outcome, setOutcome] = useState<{ saved: boolean; problem?: string } | null>(null);
  useEffect(() => {
    getPresets().then(setPresets, (error: unknown) => setOutcome({ saved: false, problem: message(error) }));
  }, []);
  useEffect(() => {
    setEvery(enabled === null);
    setChosen(enabled ?? []);
  }, [enabled]);

  const toggle = (name: string, on: boolean) => {
    setChosen((current) => (on ? [...current, name] : current.filter((other) => other !== name)));
    setOutcome(null);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    setSaving(true);
    setEnabledLabs(every ? null : chosen)
      .then(
        () => {
          setOutcome({ saved: true });
          onSaved();
        },
        (error: unknown) => setOutcome({ saved: false, problem: `Nothing was saved: ${message(error)}` }),
      )
      .finally(() => setSaving(false));
  };

  return (
    <form className="panel presets-form" aria-label="Presets students may run" onSubmit={submit}>
      <h2>Presets students may run</h2>
      <div className="check-field">
        <input
          id={`${id}-every`}
          type="radio"
          name={`${id}-scope`}
          checked={every}
          onChange={() => {
            setEvery(true);
            setOutcome(null);
          }}
        />
        <label htmlFor={`${id}-every`}>Every preset, those added later too</label>
      </div>
      <div className="check-field">
        <input
          id={`${id}-chosen`}
          type="radio"
          name={`${id}-scope`}
          checked={!every}
          onChange={() => {
            setEvery(false);
            setOutcome(null);
          }}
        />
        <label htmlFor={`${id}-chosen`}>Only these:</label>
      </div>
      <fieldset disabled={every} aria-label="Presets">
        {(presets ?? []).map((preset) => (
          <div key={preset.name} className="check-field">
            <input
              id={`${id}-${preset.name}`}
              type="checkbox"
              checked={chosen.includes(preset.name)}
              onChange={(event) => toggle(preset.name, event.target.checked)}
            />
            <label htmlFor={`${id}-${preset.name}`}>{preset.name}</label>
          </div>
        ))}
      </fieldset>
      <SubmitRow label="Save presets" busyLabel="Saving…" busy={saving} blockers={[]} />
      {outcome?.saved && <p role="status">Saved: students may run {every ? 'every preset' : chosen.join(', ') || 'no preset'}.</p>}
      {outcome?.problem && (
        <p className="error" role="alert">
          {outcome.problem}
        </p>
      )}
    </form>
  );
}
