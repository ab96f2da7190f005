import { type ComponentType, createContext, useContext } from 'react';
import type { Codec, CodecState } from '../../../lib/codec';
import type { RunsHere } from '../hooks/use-runs-here';
import type { LabKind, LabSettings } from '../logic/widget-blocks';

/** A browser lab a sheet can mount: its title, its settings (what a block may preset) and the lab itself. */
export interface SheetLab {
  title: string;
  settings: LabSettings;
  Lab: ComponentType<{ codec: Codec; preset: Record<string, string | number> }>;
}

/**
 * The browser labs the sheets mount, given by the app (features do not import each other: the app
 * composes them), by the kind a satlab-fec or satlab-channel block names.
 */
export type SheetLabs = Record<LabKind, SheetLab>;

/** What every widget of a sheet shares: the sheet's id, the labs, the codec (loaded once for the sheet) and whether runs can start here. */
export interface SheetShared {
  /** The sheet's id (03-loss-is-not-congestion.md: loss-is-not-congestion), which the runs it starts record as where they came from. */
  sheetId: string;
  labs: SheetLabs;
  codec: CodecState;
  runsHere: RunsHere;
}

/** Given by SheetView to the widgets of its sheet. */
export const SheetContext = createContext<SheetShared | null>(null);

/** useSheet gives a widget what its sheet shares. */
export function useSheet(): SheetShared {
  const shared = useContext(SheetContext);
  if (!shared) throw new Error('A sheet widget was drawn outside SheetView, which gives it the labs, the codec and the backend it shares.');
  return shared;
}
