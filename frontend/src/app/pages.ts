import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import type { PageName } from '../config/paths';

/**
 * Each page's code, loaded when the page opens (React.lazy): the first page a student opens loads
 * its own code only, not the sheets' Markdown renderer, the Studies page or the console.
 */
export const pageComponents: Record<PageName, LazyExoticComponent<ComponentType>> = {
  fec: lazy(() => import('./pages/fec-page')),
  channel: lazy(() => import('./pages/channel-page')),
  experiments: lazy(() => import('./pages/experiments-page')),
  'sign-in': lazy(() => import('./pages/sign-in-page')),
  studies: lazy(() => import('./pages/studies-page')),
  sheets: lazy(() => import('./pages/sheets-page')),
};
