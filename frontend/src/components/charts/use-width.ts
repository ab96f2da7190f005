import { type RefObject, useLayoutEffect, useRef, useState } from 'react';

/**
 * useWidth measures an element's content width in CSS pixels, and again when it changes. Charts
 * draw at that width, one SVG unit per pixel, so that their text keeps its CSS size instead of
 * shrinking with a viewBox on a narrow screen.
 */
export function useWidth<Element extends HTMLElement>(fallback: number): [RefObject<Element | null>, number] {
  const ref = useRef<Element>(null);
  const [width, setWidth] = useState(fallback);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setWidth(Math.max(200, Math.floor(element.clientWidth)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}
