import { type FormEvent, useCallback, useEffect, useId, useState } from 'react';
import { FieldProblems, NumberField, type NumberLimit, SubmitRow, useFieldProblems } from '../../../components/form';
import { ApiError } from '../../../shared/api';
import { limitValueInWords } from '../../../shared/session';
import { getQuotaLimits, getQuotas, type Quota, type QuotaValues, setQuotas } from '../api/client';

/** The one quota that is a yes or no: students may start campaigns (1) or not (0). */
const CAMPAIGNS = 'student_campaigns';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const valuesOf = (quotas: Quota[]): QuotaValues => Object.fromEntries(quotas.map((quota) => [quota.name, quota.value]));

export interface QuotasFormProps {
  /** Called after the server took new quotas (the desk shows the retention it applies). */
  onSaved?: () => void;
}

/**
 * QuotasForm lets the instructor change the students' quotas and the retention of samples while the
 * server runs: each field's range is the API's (its ceiling is this server's, from the OpenAPI
 * document), the form sends what it shows, and after saving it shows what the server now applies.
 */
export function QuotasForm({ onSaved }: QuotasFormProps) {
  const id = useId();
  const [quotas, setQuotaList] = useState<Quota[] | null>(null);
  const [limits, setLimits] = useState<Record<string, NumberLimit> | null>(null);
  const [values, setValues] = useState<QuotaValues>({});
  const typed = useFieldProblems();
  const [refused, setRefused] = useState<{ byField: Record<string, string[]>; failure?: string }>({ byField: {} });
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const show = useCallback((list: Quota[]) => {
    setQuotaList(list);
    setValues(valuesOf(list));
  }, []);
  useEffect(() => {
    getQuotas().then(show, (error: unknown) => setProblem(message(error)));
    getQuotaLimits().then(setLimits, (error: unknown) => setProblem(message(error)));
  }, [show]);

  if (problem) {
    return (
      <p className="error" role="alert">
        The quotas cannot be shown: {problem}
      </p>
    );
  }
  if (!quotas || !limits) return null;

  const change = (name: string, value: number) => {
    setValues((current) => ({ ...current, [name]: value }));
    setSaved(false);
  };
  const blockers = typed.problems;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (blockers.length > 0 || saving) return;
    setSaving(true);
    setQuotas(values)
      .then(
        (list) => {
          show(list);
          setRefused({ byField: {} });
          setSaved(true);
          onSaved?.();
        },
        (error: unknown) => {
          const byField: Record<string, string[]> = {};
          for (const { loc, msg } of error instanceof ApiError ? error.problems : []) {
            const field = String(loc[1] ?? '');
            byField[field] = [...(byField[field] ?? []), msg];
          }
          setRefused({ byField, failure: Object.keys(byField).length > 0 ? undefined : `Nothing was saved: ${message(error)}` });
        },
      )
      .finally(() => setSaving(false));
  };

  return (
    <form className="panel quotas-form" aria-label="Quotas" onSubmit={submit} noValidate>
      <h2>Quotas</h2>
      <p className="hint">
        What each student may do, and how long samples are kept. A change applies to the next request (runs under way go on);
        each value goes up to the ceiling set where the server runs.
      </p>
      {refused.failure && (
        <p className="error" role="alert">
          {refused.failure}
        </p>
      )}
      {quotas.map((quota) =>
        quota.name === CAMPAIGNS ? (
          <div key={quota.name}>
            <div className="check-field">
              <input
                id={`${id}-${quota.name}`}
                type="checkbox"
                checked={values[quota.name] === 1}
                disabled={quota.ceiling < 1}
                onChange={(event) => change(quota.name, event.target.checked ? 1 : 0)}
              />
              <label htmlFor={`${id}-${quota.name}`}>Students may start campaigns</label>
            </div>
            {quota.ceiling < 1 && <small className="hint">Not on this server: its ceiling is 0 ({quota.name}).</small>}
            <FieldProblems id={`${id}-${quota.name}-problems`} problems={refused.byField[quota.name] ?? []} />
          </div>
        ) : (
          <NumberField
            key={quota.name}
            label={capitalized(quota.description)}
            value={values[quota.name]}
            onChange={(value) => change(quota.name, value)}
            {...limits[quota.name]}
            step={1}
            hint={`${limitValueInWords(quota.name, values[quota.name])} now. Default ${limitValueInWords(quota.name, quota.default)}; at most ${limitValueInWords(quota.name, quota.ceiling)}.`}
            problems={refused.byField[quota.name]}
            onProblem={typed.reporter(quota.name)}
          />
        ),
      )}
      <SubmitRow label="Save quotas" busyLabel="Saving…" busy={saving} blockers={blockers} />
      {saved && <p role="status">Saved: students' next requests follow these quotas.</p>}
    </form>
  );
}
