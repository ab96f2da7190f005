import { SHEETS_ASSET, referenceAsset } from './assets';
import type { ReferenceRun, SheetList } from './types';

/** Files beside index.html: any web server will do, whatever type it gives .json. */
async function getStatic<Body>(path: string, missing: string): Promise<Body> {
  const url = new URL(path, document.baseURI).toString();
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${missing}`);
  return (await response.json()) as Body;
}

/** getSheets reads the lab sheets the build ships (with or without the backend: sheets are part of the site). */
export const getSheets = () => getStatic<SheetList>(SHEETS_ASSET, 'this copy of the site was built without its lab sheets');

/** getReference reads a reference run shipped with the sheets. */
export const getReference = (id: string) =>
  getStatic<ReferenceRun>(referenceAsset(id), `the reference run "${id}" is not shipped with the sheets (labs/sheets/data/${id}.json)`);
