import { type RefObject, useLayoutEffect, useRef, useState } from 'react';
import { useFigureDrawing } from './figure-drawing';

/**
 * useWidth measures an element's content width in CSS pixels, and again when it changes. Charts
 * draw at that width, one SVG unit per pixel, so that their text keeps its CSS size instead of
 * shrinking with a viewBox on a narrow screen. A chart drawn for a figure (FigureDrawing) takes
 * the figure's width instead, measuring nothing.
 */
export function useWidth<Element extends HTMLElement>(fallback: number): [RefObject<Element | null>, number] {
  const figureWidth = useFigureDrawing();
  const ref = useRef<Element>(null);
  const [width, setWidth] = useState(fallback);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || figureWidth !== null) return;
    const measure = () => setWidth(Math.max(200, Math.floor(element.clientWidth)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [figureWidth]);
  return [ref, figureWidth ?? width];
}
