import { useMemo } from 'react';
import { type LabKind, parseWidgetBlock } from '../logic/widget-blocks';
import { RunWidget } from './run-widget';
import { useSheet } from './sheet-context';

export interface SheetWidgetProps {
  /** The fenced block's language: satlab-fec, satlab-channel or satlab-run. */
  language: string;
  /** The block's JSON. */
  text: string;
}

/** SheetWidget mounts one satlab-… block of a sheet as its widget, or says in the sheet what is wrong with it. */
export function SheetWidget({ language, text }: SheetWidgetProps) {
  const { labs } = useSheet();
  const block = useMemo(
    () => parseWidgetBlock(language, text, { fec: labs.fec.settings, channel: labs.channel.settings }),
    [language, text, labs],
  );
  switch (block.kind) {
    case 'invalid':
      return (
        <div className="sheet-widget sheet-widget-invalid">
          <p className="error" role="alert">
            This widget cannot be shown. {block.problem}
          </p>
          <pre>
            <code>{text}</code>
          </pre>
        </div>
      );
    case 'run':
      return <RunWidget run={block.run} />;
    default:
      return <LabWidget lab={block.kind} preset={block.preset} />;
  }
}

/** presetText says what a sheet set, the way a person reads it: "k = 5, z = 20, kind = outage". */
const presetText = (preset: Record<string, string | number>) =>
  Object.entries(preset)
    .map(([field, value]) => `${field} = ${value}`)
    .join(', ');

/** LabWidget runs a browser lab preset by the sheet; the lab's state stays its own, out of the address. */
function LabWidget({ lab, preset }: { lab: LabKind; preset: Record<string, string | number> }) {
  const { codec, labs } = useSheet();
  const { title, Lab } = labs[lab];
  return (
    <figure className="sheet-widget" aria-label={`${title}, preset by the sheet`}>
      <figcaption>
        <strong>{title}</strong>
        {Object.keys(preset).length > 0 ? `, set by the sheet: ${presetText(preset)}` : ', as it opens'}
      </figcaption>
      {codec.status === 'loading' && <p role="status">Loading the codec…</p>}
      {codec.status === 'failed' && (
        <p className="error" role="alert">
          {codec.message}
        </p>
      )}
      {codec.status === 'ready' && <Lab codec={codec.codec} preset={preset} />}
    </figure>
  );
}
