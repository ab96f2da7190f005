import { useId } from 'react';
import { NumberField, SelectField, FieldProblems, describedBy } from '../../components/form';
import type { ChannelKind } from '../codec';
import { type ChannelParams, type ChannelProblems, channelFieldsByKind, channelKindLabels } from './channel-params';
import { channelPresets } from './channel-presets';

export interface ChannelFieldsProps {
  /** The channel as the lab holds it. */
  params: ChannelParams;
  /** Called with the fields that changed, as typed: a value out of range comes back in problems. */
  onChange: (patch: Partial<ChannelParams>) => void;
  /** What the codec would refuse, by field (channelProblems), shown beside each field. */
  problems: ChannelProblems;
}

// No min or max: every value typed reaches the lab, which refuses it beside the field
// (channelProblems) rather than running on with the previous one.
const numberFieldLabels: Record<Exclude<keyof ChannelParams, 'kind' | 'trace'>, string> = {
  seed: 'Seed',
  packetMs: 'Packet spacing (ms)',
  loss: 'Loss probability',
  p: 'p, good → bad',
  q: 'q, bad → good',
  lossGood: 'Loss in the good state',
  lossBad: 'Loss in the bad state',
  stepMs: 'Step (ms)',
  periodMs: 'Period (ms)',
  durationMs: 'Outage duration (ms)',
  phaseMs: 'First outage at (ms)',
  jitterMs: 'Jitter (ms)',
  tracePeriodMs: 'Trace repeats every (ms, 0 = never)',
};

const customPreset = 'custom';

/** ChannelFields edits a channel model: a preset, the model, its parameters, the seed, the packet spacing. */
export function ChannelFields({ params, onChange, problems }: ChannelFieldsProps) {
  const traceId = useId();
  const active = channelPresets.find((preset) =>
    Object.entries(preset.params).every(([field, value]) => params[field as keyof ChannelParams] === value),
  );
  const activePreset = active?.id ?? customPreset;
  const traceProblems = problems.trace ?? [];
  return (
    <fieldset className="channel-fields">
      <legend>Channel</legend>
      <SelectField
        label="Preset"
        value={activePreset}
        options={[
          ...channelPresets.map((preset) => ({ value: preset.id, label: preset.label })),
          { value: customPreset, label: 'Custom' },
        ]}
        onChange={(id) => {
          const preset = channelPresets.find((candidate) => candidate.id === id);
          if (preset) onChange(preset.params);
        }}
        hint={active?.note}
      />
      <SelectField<ChannelKind>
        label="Model"
        value={params.kind}
        options={Object.entries(channelKindLabels).map(([value, label]) => ({ value: value as ChannelKind, label }))}
        onChange={(kind) => onChange({ kind })}
      />
      {channelFieldsByKind[params.kind].map((field) =>
        field === 'trace' ? (
          <div className="field" key={field}>
            <label htmlFor={traceId}>Loss intervals (ms, start-end, …)</label>
            <input
              id={traceId}
              value={params.trace}
              aria-invalid={traceProblems.length > 0}
              aria-describedby={describedBy(`${traceId}-hint`, traceProblems.length > 0 && `${traceId}-problems`)}
              onChange={(event) => onChange({ trace: event.target.value })}
            />
            <small id={`${traceId}-hint`} className="hint">
              Packets sent inside an interval are lost.
            </small>
            <FieldProblems id={`${traceId}-problems`} problems={traceProblems} />
          </div>
        ) : (
          <NumberField
            key={field}
            label={numberFieldLabels[field as keyof typeof numberFieldLabels]}
            value={params[field] as number}
            onChange={(value) => onChange({ [field]: value })}
            problems={problems[field]}
          />
        ),
      )}
      <NumberField
        label={numberFieldLabels.packetMs}
        value={params.packetMs}
        onChange={(packetMs) => onChange({ packetMs })}
        problems={problems.packetMs}
      />
      <NumberField label={numberFieldLabels.seed} step={1} value={params.seed} onChange={(seed) => onChange({ seed })} problems={problems.seed} />
    </fieldset>
  );
}
