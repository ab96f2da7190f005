import { createContext, useContext } from 'react';

/**
 * FigureDrawing is set around a chart drawn again, off the screen, to be saved as a figure: the
 * width it is drawn at, in CSS pixels, instead of its box's. Null on the page.
 */
export const FigureDrawing = createContext<number | null>(null);

/** useFigureDrawing is the width a chart is drawn at for a figure, or null when it is on the page. */
export const useFigureDrawing = () => useContext(FigureDrawing);
