import { type ReactNode, useEffect, useRef } from 'react';

/**
 * useLoadedNotice gives a form, when it was loaded from a stored run or campaign, a notice saying
 * so, scrolled into view and focused once (the button that loaded it is elsewhere on the page).
 */
export function useLoadedNotice(message: string | null): ReactNode {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (!message) return;
    ref.current?.scrollIntoView({ block: 'start' });
    ref.current?.focus();
    // Once, when the form appears: its message does not change for the form's life.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, as said above
  }, []);
  if (!message) return null;
  return (
    <p ref={ref} className="notice" role="status" tabIndex={-1}>
      {message}
    </p>
  );
}
