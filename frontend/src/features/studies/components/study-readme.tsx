import type { ReactNode } from 'react';
import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { readmeHeadingId, readmeId } from '../logic/explanations';

/** The text of a heading's children, as its README writes it. */
const textOf = (children: ReactNode): string =>
  Array.isArray(children) ? children.map(textOf).join('') : typeof children === 'string' || typeof children === 'number' ? String(children) : '';

/**
 * StudyReadme is the recipe's README.md, folded under the report: how satlab models the study and
 * why its figures differ. Each heading has the id its explanations link to (readmeHeadingId); the
 * Markdown is rendered without raw HTML.
 */
export function StudyReadme({ studyId, markdown }: { studyId: string; markdown: string }) {
  const heading =
    (Tag: 'h3' | 'h4' | 'h5' | 'h6'): Components['h1'] =>
    ({ children }) => <Tag id={readmeHeadingId(studyId, textOf(children))}>{children}</Tag>;
  // One level below the page's: the README's title is a heading of the study.
  const components: Components = { h1: heading('h3'), h2: heading('h4'), h3: heading('h5'), h4: heading('h6'), h5: heading('h6'), h6: heading('h6') };
  return (
    <details className="panel study-readme" id={readmeId(studyId)}>
      <summary>The recipe&apos;s README: how satlab runs this study, and why its figures differ from the published ones</summary>
      <Markdown remarkPlugins={[remarkGfm]} components={components}>
        {markdown}
      </Markdown>
    </details>
  );
}

/**
 * ReadmeLink points into the study's README (a section of it, or its top), opening it first: a
 * closed details element hides its headings from the jump.
 */
export function ReadmeLink({ studyId, section, children }: { studyId: string; section?: string; children: ReactNode }) {
  return (
    <a
      href={`#${section ? readmeHeadingId(studyId, section) : readmeId(studyId)}`}
      onClick={() => {
        const readme = document.getElementById(readmeId(studyId));
        if (readme instanceof HTMLDetailsElement) readme.open = true;
      }}
    >
      {children}
    </a>
  );
}
