import { useEffect, useRef } from 'react';
import type { FecRunView } from '../logic/fec-run';
import { lacksSomething, payloadVerdict } from '../logic/outcome';
import type { RgbImage } from '../logic/sample-image';
import { receivedText } from '../logic/payload';

export interface PayloadCompareProps {
  /** The original payload: a text, or a small image. */
  original: { kind: 'text'; text: string } | { kind: 'image'; image: RgbImage };
  /** The run whose receiver to show: its symbol per ESI, undefined while missing. */
  view: Pick<FecRunView, 'sources' | 'held' | 'symbolBytes' | 'sourceCount' | 'finished'>;
}

/** PayloadCompare shows the original beside what the receiver holds now, holes included. */
export function PayloadCompare({ original, view }: PayloadCompareProps) {
  const { held, symbolBytes, sourceCount, finished } = view;
  const symbols = Array.from({ length: sourceCount }, (_, esi) => held[esi]);
  const lacking = symbols.flatMap((symbol, esi) => (symbol ? [] : [esi]));
  const verdict = (identical: boolean) => {
    const state = { kind: original.kind, identical, sourcesSent: view.sources.length, finished, lacking, sourceCount };
    const className = identical ? 'verdict verdict-same' : lacksSomething(state) ? 'verdict' : 'verdict verdict-waiting';
    return (
      <p className={className} role="status">
        {payloadVerdict(state)}
      </p>
    );
  };
  if (original.kind === 'text') {
    const lengthBytes = new TextEncoder().encode(original.text).length;
    const atReceiver = receivedText(symbols, symbolBytes, lengthBytes);
    const identical = atReceiver === original.text;
    return (
      <div className="payload-compare">
        <figure>
          <figcaption>Original text</figcaption>
          <pre>{original.text}</pre>
        </figure>
        <figure>
          <figcaption>Text at the receiver</figcaption>
          <pre>{atReceiver}</pre>
        </figure>
        {verdict(identical)}
      </div>
    );
  }
  const { image } = original;
  const bytes = new Uint8Array(image.rgb.length);
  const known = new Uint8Array(image.rgb.length);
  symbols.forEach((symbol, esi) => {
    if (!symbol) return;
    const offset = esi * symbolBytes;
    bytes.set(symbol.subarray(0, Math.max(0, image.rgb.length - offset)), offset);
    known.fill(1, offset, Math.min(offset + symbolBytes, image.rgb.length));
  });
  const identical = known.every(Boolean) && bytes.every((value, index) => value === image.rgb[index]);
  return (
    <div className="payload-compare">
      <figure>
        <figcaption>Original image</figcaption>
        <RgbCanvas image={image} label="The original image: a satellite above the Earth" />
      </figure>
      <figure>
        <figcaption>Image at the receiver</figcaption>
        <RgbCanvas image={{ ...image, rgb: bytes }} known={known} label="The image as the receiver holds it; missing bytes are magenta" />
      </figure>
      {verdict(identical)}
    </div>
  );
}

function RgbCanvas({ image, known, label }: { image: RgbImage; known?: Uint8Array; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const context = canvas.current?.getContext('2d');
    if (!context) return;
    const pixels = context.createImageData(image.width, image.height);
    for (let pixel = 0; pixel < image.width * image.height; pixel += 1) {
      const missing = known !== undefined && !known[pixel * 3];
      pixels.data.set(missing ? [255, 0, 200] : image.rgb.subarray(pixel * 3, pixel * 3 + 3), pixel * 4);
      pixels.data[pixel * 4 + 3] = 255;
    }
    context.putImageData(pixels, 0, 0);
  }, [image, known]);
  return <canvas ref={canvas} width={image.width} height={image.height} role="img" aria-label={label} className="pixel-canvas" />;
}
