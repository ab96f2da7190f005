import { inAddress, paths } from '../../../config/paths';
import { getSheets } from '../api/client';
import { useLoaded } from '../hooks/use-loaded';
import type { SheetLabs } from './sheet-context';
import { SheetView } from './sheet-view';
import '../sheets.css';

/**
 * SheetsPage lists the lab sheets of labs/sheets/ and shows the one the address names: its text,
 * its live widgets preset by the sheet, and its questions. The sheets ship with the site, so the
 * page works with or without the backend.
 */
export function SheetsPage({ labs }: { labs: SheetLabs }) {
  const sheets = useLoaded('sheets', getSheets);
  if (sheets.status === 'loading') return <p role="status">Loading the lab sheets…</p>;
  if (sheets.status === 'failed') {
    return (
      <p className="error" role="alert">
        The lab sheets did not load: {sheets.message}.
      </p>
    );
  }
  const requested = inAddress.sheet();
  const sheet = sheets.value.data.find((candidate) => candidate.id === requested);
  if (sheet) return <SheetView key={sheet.id} sheet={sheet} labs={labs} />;
  return (
    <div className="sheets">
      {requested !== null && (
        <p className="error" role="alert">
          There is no sheet named “{requested}”; the sheets are listed below.
        </p>
      )}
      <ol className="sheet-list">
        {sheets.value.data.map((candidate) => (
          <li key={candidate.id} className="panel">
            <h2>
              <a href={paths.sheets.sheet(candidate.id)}>{candidate.title}</a>
            </h2>
            <p>{candidate.goal}</p>
          </li>
        ))}
      </ol>
    </div>
  );
}
