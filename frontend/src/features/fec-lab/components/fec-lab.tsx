import { useId, useMemo } from 'react';
import { SelectField } from '../../../components/form';
import { ChannelFields, channelKindLabels, channelProblems, defaultChannelParams, toChannelConfig } from '../../../lib/channel';
import { codeProblems, hasProblems } from '../../../lib/code-limits';
import type { Codec } from '../../../lib/codec';
import { useUrlState } from '../../../lib/url-state';
import { useFecRun } from '../hooks/use-fec-run';
import { decoderState } from '../logic/decoder-state';
import { viewEquations } from '../logic/equations';
import { type FecRunConfig, fecCounters } from '../logic/fec-run';
import { decoderWindowEsis } from '../logic/give-up-rule';
import { sampleImage } from '../logic/sample-image';
import { timelineSource } from '../logic/timeline-figure';
import { CodeFields } from './code-fields';
import { CountersPanel } from './counters-panel';
import { EquationsTable } from './equations-table';
import { EventLog } from './event-log';
import { PacketTimeline } from './packet-timeline';
import { PayloadCompare } from './payload-compare';
import { TransportControls } from './transport-controls';

export interface FecLabProps {
  /** The loaded WebAssembly codec. */
  codec: Codec;
  /** Settings that replace the defaults, for a lab embedded in a lab sheet: its state then stays out of the address. */
  preset?: Partial<FecLabSettings>;
}

type PayloadKind = 'text' | 'image';

const defaults = {
  ...defaultChannelParams,
  loss: 0.15,
  seed: 35,
  k: 3,
  z: 9,
  symbolBytes: 8,
  payload: 'text' as PayloadKind,
  text:
    'Sliding-window FEC over a geostationary link: every repair packet mixes the last z source packets, ' +
    'so a lost packet is rebuilt as soon as enough repairs arrive.',
  speed: 4,
};

/** The settings a run depends on: all but the playing speed. */
type RunSettings = Omit<typeof defaults, 'speed'>;

const choices = { kind: Object.keys(channelKindLabels), payload: ['text', 'image'] };

/** Every setting of the lab, its default (which gives its type) and the values a choice allows: what a preset may set. */
export const fecLabSettings = { defaults, choices };
export type FecLabSettings = typeof defaults;
const image = sampleImage();
/** One row of the sample image per symbol: a lost symbol is a lost row. */
const imageSymbolBytes = image.width * 3;

/**
 * FecLab sends a text or an image through the real sliding-window codec in WebAssembly, packet by
 * packet, and shows the time line, the receiver, the decoder's equations and the counters.
 */
export function FecLab({ codec, preset }: FecLabProps) {
  const [state, update] = useUrlState(defaults, choices, 'fec', preset);
  const id = useId();
  // A new run starts when a setting it depends on changes.
  const { speed, ...runSettings } = state;
  const problems = { ...channelProblems(state), ...codeProblems({ k: state.k, z: state.z, symbolBytes: state.symbolBytes }) };
  const refused = hasProblems(problems);
  const runKey = refused ? '' : JSON.stringify(runSettings);
  const prepared = useMemo(
    () =>
      runKey
        ? prepareRun(JSON.parse(runKey) as RunSettings)
        : { error: 'The lab cannot run these settings: each refused field says why, beside it.' },
    [runKey],
  );
  const run = useFecRun(codec, prepared.config, speed);
  const view = run.view;

  const matrix = useMemo(
    () => view && viewEquations(view, (id) => codec.coefficients(id.repairKey, id.dt, id.nss)),
    [view, codec],
  );

  // The controls and the time line come first in the page's order, so that on a narrow screen
  // Step and Play sit at the top and the settings follow; beside a wide screen's settings column
  // the grid puts them back on the right (app.css, .fec-lab).
  const settings = (
    <form className="lab-settings" aria-label="FEC lab settings" onSubmit={(event) => event.preventDefault()}>
      <CodeFields params={state} onChange={update} problems={problems} />
      <ChannelFields params={state} onChange={update} problems={problems} />
      <fieldset>
        <legend>Payload</legend>
        <SelectField<PayloadKind>
          label="Send"
          value={state.payload}
          options={[
            { value: 'text', label: 'A short text' },
            { value: 'image', label: `A ${image.width} × ${image.height} image` },
          ]}
          onChange={(payload) => update({ payload, symbolBytes: payload === 'image' ? imageSymbolBytes : defaults.symbolBytes })}
        />
        {state.payload === 'text' && (
          <div className="field">
            <label htmlFor={id}>Text</label>
            <textarea id={id} rows={4} value={state.text} onChange={(event) => update({ text: event.target.value })} />
          </div>
        )}
      </fieldset>
    </form>
  );

  return (
    <div className="lab fec-lab">
      <div className="lab-controls">
        {(run.error ?? prepared.error) && (
          <p className="error" role="alert">
            {run.error ?? prepared.error}
          </p>
        )}
        {view && <TransportControls run={run} speed={speed} onSpeedChange={(speed) => update({ speed })} />}
      </div>
      {view && (
        <section aria-labelledby={`${id}-timeline`} className="panel">
          <h2 id={`${id}-timeline`}>
            Time line of S({state.k},{state.z})
          </h2>
          <PacketTimeline
            view={view}
            source={prepared.config ? timelineSource(view, state.k, state.z, prepared.config.channel, state.packetMs) : ''}
            legend={timelineLegend(state.z)}
          />
          <TimelineLegend z={state.z} />
        </section>
      )}
      {settings}
      {view && (
        <>
          <section aria-labelledby={`${id}-counters`} className="panel">
            <h2 id={`${id}-counters`}>Counters</h2>
            <CountersPanel counters={fecCounters(view, state.packetMs)} z={state.z} />
          </section>
          <div className="panel-row">
            <section aria-labelledby={`${id}-equations`} className="panel">
              <h2 id={`${id}-equations`}>Decoder equations</h2>
              {matrix && <EquationsTable matrix={matrix} state={decoderState(view, matrix)} z={state.z} />}
            </section>
            <section aria-labelledby={`${id}-events`} className="panel">
              <h2 id={`${id}-events`}>What happened</h2>
              <EventLog view={view} z={state.z} />
            </section>
          </div>
          <section aria-labelledby={`${id}-payload`} className="panel">
            <h2 id={`${id}-payload`}>Payload</h2>
            <PayloadCompare
              original={state.payload === 'image' ? { kind: 'image', image } : { kind: 'text', text: state.text }}
              view={view}
            />
          </section>
        </>
      )}
    </div>
  );
}

/** The most source packets the time line draws legibly. */
const maxSourcePackets = 300;

/** prepareRun turns the lab's settings into a run's configuration, or says why it cannot. */
function prepareRun(settings: RunSettings): { config?: FecRunConfig; error?: string } {
  const payload = settings.payload === 'image' ? image.rgb : new TextEncoder().encode(settings.text);
  const sourcePackets = Math.ceil(payload.length / settings.symbolBytes);
  if (sourcePackets > maxSourcePackets) {
    return {
      error:
        `The payload needs ${sourcePackets} source packets of ${settings.symbolBytes} bytes; the lab draws at most ` +
        `${maxSourcePackets}: shorten the text or raise the symbol size.`,
    };
  }
  try {
    return {
      config: {
        k: settings.k,
        z: settings.z,
        symbolBytes: settings.symbolBytes,
        packetMs: settings.packetMs,
        channel: toChannelConfig(settings),
        payload,
      },
    };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** The time line's marks, [class, what it is]: its legend on the page and in its figure. */
const timelineLegend = (z: number): [string, string][] => [
  ['packet-source', 'Source packet (ESI)'],
  ['packet-repair', 'Repair packet'],
  ['receiver-received', 'Received'],
  ['receiver-missing', 'Lost, still missing'],
  ['receiver-rebuilt', 'Rebuilt by the decoder'],
  ['receiver-given-up', `Given up: ${decoderWindowEsis(z)} or more ESIs behind the newest the decoder heard of`],
];

function TimelineLegend({ z }: { z: number }) {
  return (
    <ul className="legend" aria-label="Legend">
      {timelineLegend(z).map(([className, label]) => (
        <li key={className}>
          <svg width="18" height="14" aria-hidden="true">
            <rect className={className} x="1" y="1" width="16" height="12" rx="2" />
          </svg>
          {label}
        </li>
      ))}
      <li>
        <span className="loss-mark" aria-hidden="true">
          ✕
        </span>{' '}
        Dropped by the channel
      </li>
    </ul>
  );
}
