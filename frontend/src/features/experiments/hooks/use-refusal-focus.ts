import { type RefObject, useEffect } from 'react';

/**
 * useRefusalFocus takes the keyboard focus to a refusal as it comes, so that it is where the person
 * is and their screen reader reads it: the first control that says what is wrong with it
 * (aria-invalid), else the refusal beside the submit button. refused changes identity with each
 * refusal.
 */
export function useRefusalFocus(form: RefObject<HTMLFormElement | null>, refusal: RefObject<HTMLElement | null>, refused: unknown) {
  useEffect(() => {
    if (!refused) return;
    const field = form.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    const target = field ?? refusal.current;
    target?.focus();
    target?.scrollIntoView({ block: 'center' });
  }, [form, refusal, refused]);
}
