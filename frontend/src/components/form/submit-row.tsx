import { useId } from 'react';

export interface SubmitRowProps {
  /** The button's text. */
  label: string;
  /** The button's text while the request is under way. */
  busyLabel: string;
  busy: boolean;
  /** Why nothing can be sent now, one sentence each; the button is disabled while there is one. */
  blockers: string[];
}

/** SubmitRow is a form's submit button with, beside it, why it is disabled (read as its description). */
export function SubmitRow({ label, busyLabel, busy, blockers }: SubmitRowProps) {
  const id = useId();
  return (
    <div className="submit-row">
      {/* While busy the button is aria-disabled, not disabled: a disabled button drops the keyboard focus to the page. */}
      <button
        type="submit"
        className="primary"
        disabled={blockers.length > 0}
        aria-disabled={busy || undefined}
        aria-describedby={blockers.length > 0 ? id : undefined}
      >
        {busy ? busyLabel : label}
      </button>
      {blockers.length > 0 && (
        <ul id={id} className="submit-blockers">
          {blockers.map((blocker) => (
            <li key={blocker}>{blocker}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
