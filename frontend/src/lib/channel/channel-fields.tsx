import { useId } from 'react';
import { NumberField } from '../../components/number-field';
import { SelectField } from '../../components/select-field';
import type { ChannelKind } from '../codec/types';
import {
  type ChannelParams,
  channelFieldsByKind,
  channelKindLabels,
  channelPresets,
  parseTrace,
} from './channel-params';

export interface ChannelFieldsProps {
  /** The channel as the lab holds it. */
  params: ChannelParams;
  /** Called with the fields that changed. */
  onChange: (patch: Partial<ChannelParams>) => void;
}

const numberFieldSpecs: Record<Exclude<keyof ChannelParams, 'kind' | 'trace'>, { label: string; min: number; max?: number }> = {
  seed: { label: 'Seed', min: 0, max: 4294967295 },
  packetMs: { label: 'Packet spacing (ms)', min: 0.001 },
  loss: { label: 'Loss probability', min: 0, max: 1 },
  p: { label: 'p, good → bad', min: 0, max: 1 },
  q: { label: 'q, bad → good', min: 0, max: 1 },
  lossGood: { label: 'Loss in the good state', min: 0, max: 1 },
  lossBad: { label: 'Loss in the bad state', min: 0, max: 1 },
  stepMs: { label: 'Step (ms)', min: 0.001 },
  periodMs: { label: 'Period (ms)', min: 0.001 },
  durationMs: { label: 'Outage duration (ms)', min: 0 },
  phaseMs: { label: 'First outage at (ms)', min: 0 },
  jitterMs: { label: 'Jitter (ms)', min: 0 },
  tracePeriodMs: { label: 'Trace repeats every (ms, 0 = never)', min: 0 },
};

const customPreset = 'custom';

/** ChannelFields edits a channel model: a preset, the model, its parameters, the seed, the packet spacing. */
export function ChannelFields({ params, onChange }: ChannelFieldsProps) {
  const traceId = useId();
  const activePreset =
    channelPresets.find((preset) =>
      Object.entries(preset.params).every(([field, value]) => params[field as keyof ChannelParams] === value),
    )?.id ?? customPreset;
  let traceError: string | undefined;
  try {
    parseTrace(params.trace);
  } catch (error) {
    traceError = (error as Error).message;
  }
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
              aria-invalid={traceError !== undefined}
              aria-describedby={`${traceId}-error`}
              onChange={(event) => onChange({ trace: event.target.value })}
            />
            <small id={`${traceId}-error`} className="hint" role={traceError ? 'alert' : undefined}>
              {traceError ?? 'Packets sent inside an interval are lost.'}
            </small>
          </div>
        ) : (
          <NumberField
            key={field}
            {...numberFieldSpecs[field as keyof typeof numberFieldSpecs]}
            value={params[field] as number}
            onChange={(value) => onChange({ [field]: value })}
          />
        ),
      )}
      <NumberField {...numberFieldSpecs.packetMs} value={params.packetMs} onChange={(packetMs) => onChange({ packetMs })} />
      <NumberField {...numberFieldSpecs.seed} step={1} value={params.seed} onChange={(seed) => onChange({ seed })} />
    </fieldset>
  );
}
