export type { SheetLab, SheetLabs } from './components/sheet-context';
export { SheetsPage } from './components/sheets-page';
