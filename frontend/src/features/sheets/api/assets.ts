/**
 * Where the build keeps the lab sheets (scripts/sheets-asset.ts writes them, the page reads them),
 * relative to index.html: the sheets with their Markdown in one file, each reference run in its own.
 */
export const SHEETS_ASSET = 'sheets.json';

/** referenceAsset is where a reference run's file is: labs/sheets/data/<id>.json, copied as is. */
export const referenceAsset = (id: string) => `sheets/data/${id}.json`;
