export { SheetsPage } from './components/sheets-page';
