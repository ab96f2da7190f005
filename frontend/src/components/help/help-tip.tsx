import { useId, useState } from 'react';

export interface HelpTipProps {
  /** What the tip explains, for the button's name: "About residual loss". */
  term: string;
  /** The explanation, a sentence or two. */
  text: string;
  /** The id the explanation gets, so that the thing explained can name it in aria-describedby. */
  id?: string;
}

/**
 * HelpTip is a small "?" button whose explanation shows while it is pointed at or focused, and
 * goes with Escape. The explanation stays in the page (hidden), so the element it explains can
 * refer to it with aria-describedby: a screen reader reads it with that element, not only on the
 * button, and nothing depends on a title attribute.
 */
export function HelpTip({ term, text, id }: HelpTipProps) {
  const ownId = useId();
  const tipId = id ?? ownId;
  const [open, setOpen] = useState(false);
  return (
    <span className="help" onMouseEnter={() => setOpen(true)} onMouseLeave={() => setOpen(false)}>
      <button
        type="button"
        className="help-button"
        aria-label={`About ${term}`}
        aria-describedby={tipId}
        aria-expanded={open}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onClick={() => setOpen((current) => !current)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') setOpen(false);
        }}
      >
        ?
      </button>
      <span id={tipId} role="tooltip" className="help-tip" hidden={!open}>
        {text}
      </span>
    </span>
  );
}
