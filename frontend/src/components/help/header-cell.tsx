import { useId } from 'react';
import { HelpTip } from './help-tip';

export interface HeaderCellProps {
  /** The column's title, with its unit: its accessible name. */
  label: string;
  /** What the column means, shown on hover or focus of a "?" and read as the header's description. */
  help?: string;
}

/** HeaderCell is a table's column header with, when given, an explanation of what the column holds. */
export function HeaderCell({ label, help }: HeaderCellProps) {
  const id = useId();
  return (
    <th scope="col" aria-label={label} aria-describedby={help ? id : undefined}>
      {label}
      {help && <HelpTip term={label} text={help} id={id} />}
    </th>
  );
}
