import { type ReactNode, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { DownloadMenu } from './download-menu';
import { type ChartTable, csvText } from './figure-csv';
import { FigureDrawing, useFigureDrawing } from './figure-drawing';
import { figureDrawWidthPx, figureFileName, pngDpi, pngSize } from './figure-layout';
import { renderPng } from './figure-png';
import { chartFigure, type FigureText } from './figure-svg';
import { saveFile } from './save-file';
import './figure-export.css';

/** ChartFigure is what a chart hands ChartExport: its title, caption and legend, and its data as a table. */
export interface ChartFigure<Row> extends FigureText {
  /** The rows the chart draws and the accessors it draws them with: the CSV, made when asked for. */
  table: () => ChartTable<Row>;
}

export interface ChartExportProps<Row> {
  figure: ChartFigure<Row>;
  /** The chart again, with the same props: drawn off the screen at a figure's width for an SVG or a PNG. */
  redraw: () => ReactNode;
}

type Status = { kind: 'busy' | 'error'; text: string } | null;

/**
 * ChartExport is a chart's Download menu: SVG and PNG of the chart as a figure (drawn again at a
 * column's width, figure-layout.ts, with its legend and caption, styles inline; the PNG at 300
 * dpi), and CSV of its data. A chart opts in by rendering it beside its <svg> with its figure and
 * itself as redraw; in the copy drawn for a figure it renders nothing.
 */
export function ChartExport<Row>({ figure, redraw }: ChartExportProps<Row>) {
  const drawing = useFigureDrawing();
  const [pending, setPending] = useState<'svg' | 'png' | null>(null);
  const [status, setStatus] = useState<Status>(null);
  const host = useRef<HTMLDivElement>(null);
  const fileName = figureFileName(figure.source, figure.title);

  // The copy is in the page (off the screen) once this runs: its styles are computed.
  useEffect(() => {
    if (pending === null) return;
    setPending(null);
    const svg = host.current?.querySelector<SVGSVGElement>('svg[role="img"]');
    if (!svg) {
      setStatus({ kind: 'error', text: `The ${pending.toUpperCase()} could not be made: the chart drew nothing.` });
      return;
    }
    const made = chartFigure(svg, figure);
    if (pending === 'svg') {
      setStatus(null);
      saveFile(new Blob([made.svg], { type: 'image/svg+xml' }), `${fileName}.svg`);
      return;
    }
    setStatus({ kind: 'busy', text: 'Making the PNG…' });
    const { width, height } = pngSize(made);
    renderPng(made.svg, width, height, pngDpi).then(
      (png) => {
        setStatus(null);
        saveFile(png, `${fileName}.png`);
      },
      (error: Error) => setStatus({ kind: 'error', text: `The PNG could not be made: ${error.message}.` }),
    );
  }, [pending, figure, fileName]);

  if (drawing !== null) return null;
  const saveCsv = () => {
    setStatus(null);
    saveFile(new Blob([csvText(figure.table())], { type: 'text/csv' }), `${fileName}.csv`);
  };
  return (
    <div className="chart-export">
      <DownloadMenu
        what={figure.title}
        busy={pending !== null || status?.kind === 'busy'}
        items={[
          { label: 'SVG', onSelect: () => setPending('svg') },
          { label: 'PNG', onSelect: () => setPending('png') },
          { label: 'CSV', onSelect: saveCsv },
        ]}
      />
      {status && (
        <p className={`chart-export-status ${status.kind}`} role={status.kind === 'error' ? 'alert' : 'status'}>
          {status.text}
        </p>
      )}
      {pending !== null &&
        createPortal(
          <FigureDrawing value={figureDrawWidthPx}>
            <div ref={host} className="figure-offscreen" aria-hidden="true" style={{ width: figureDrawWidthPx }}>
              {redraw()}
            </div>
          </FigureDrawing>,
          document.body,
        )}
    </div>
  );
}
