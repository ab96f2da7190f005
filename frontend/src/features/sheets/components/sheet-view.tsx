import type { ReactNode } from 'react';
import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { paths } from '../../../config/paths';
import { useCodec } from '../../../lib/codec';
import type { Sheet } from '../api/types';
import { useRunsHere } from '../hooks/use-runs-here';
import { isWidgetLanguage } from '../logic/widget-blocks';
import { type SheetLabs, SheetContext } from './sheet-context';
import { SheetWidget } from './sheet-widget';

export interface SheetViewProps {
  sheet: Sheet;
  /** The browser labs the sheet's satlab-fec and satlab-channel blocks mount. */
  labs: SheetLabs;
}

/** The part of a hast tree react-markdown hands to its components that a fenced block needs. */
interface HastNode {
  type: string;
  tagName?: string;
  value?: string;
  properties?: { className?: unknown };
  children?: HastNode[];
}

const textOf = (node: HastNode): string => node.value ?? (node.children ?? []).map(textOf).join('');

/** fencedWidget gives the language and text of a <pre><code class="language-satlab-…"> block, or null for any other. */
function fencedWidget(pre: HastNode | undefined): { language: string; text: string } | null {
  const code = pre?.children?.find((child) => child.type === 'element' && child.tagName === 'code');
  const classes = code?.properties?.className;
  const language = Array.isArray(classes)
    ? classes.map(String).find((name) => name.startsWith('language-'))?.slice('language-'.length)
    : undefined;
  return code && language && isWidgetLanguage(language) ? { language, text: textOf(code) } : null;
}

const heading =
  (Tag: 'h2' | 'h3' | 'h4' | 'h5' | 'h6') =>
  ({ children }: { children?: ReactNode }) => <Tag>{children}</Tag>;

/**
 * How a sheet's Markdown is drawn: one heading level down (the sheet's title is the page's second
 * level), and each satlab-… block as its widget. Constant, so that React keeps the widgets mounted.
 */
const components: Components = {
  h1: heading('h2'),
  h2: heading('h3'),
  h3: heading('h4'),
  h4: heading('h5'),
  h5: heading('h6'),
  pre: ({ node, children }) => {
    const block = fencedWidget(node as HastNode | undefined);
    return block ? <SheetWidget {...block} /> : <pre>{children}</pre>;
  },
};

/**
 * SheetView renders one sheet's Markdown (react-markdown: no raw HTML, so a sheet cannot inject
 * any) with each satlab-… block mounted as its live widget. Print gives the text and each
 * widget's current state, without controls (sheets.css).
 */
export function SheetView({ sheet, labs }: SheetViewProps) {
  const codec = useCodec();
  const runsHere = useRunsHere();
  return (
    <article className="sheet-view" aria-labelledby="sheet-title">
      <div className="sheet-toolbar">
        <a href={paths.sheets.list()}>All lab sheets</a>
        <button type="button" onClick={() => window.print()}>
          Print this sheet
        </button>
      </div>
      <h2 id="sheet-title" className="sheet-title">
        {sheet.title}
      </h2>
      <div className="sheet-text">
        <SheetContext value={{ sheetId: sheet.id, labs, codec, runsHere }}>
          <Markdown remarkPlugins={[remarkGfm]} components={components}>
            {sheet.markdown}
          </Markdown>
        </SheetContext>
      </div>
    </article>
  );
}
