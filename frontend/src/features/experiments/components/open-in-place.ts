import type { MouseEvent } from 'react';

/**
 * openInPlace makes a plain click on a link open its item in the console (onOpen) instead of
 * loading the page again; a middle click or one with a modifier keeps the browser's behaviour
 * (a new tab or window).
 */
export const openInPlace = (onOpen: (id: string) => void, id: string) => (event: MouseEvent) => {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  onOpen(id);
};
