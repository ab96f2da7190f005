import { SelectField } from '../../../components/form';
import type { FecRunControls } from '../hooks/use-fec-run';

export interface TransportControlsProps {
  /** The run to drive. */
  run: FecRunControls;
  /** Packets sent per second while playing. */
  speed: number;
  /** Called with a new speed. */
  onSpeedChange: (speed: number) => void;
}

const speeds = [1, 2, 4, 8, 16, 32];

/**
 * ControlButton is a button that, when it cannot act, says so with aria-disabled rather than
 * disabled: a disabled button drops the keyboard focus to the page, and pressing Step at the last
 * packet or Run to end would leave the keyboard user nowhere.
 */
function ControlButton({ label, onPress, unavailable }: { label: string; onPress: () => void; unavailable: boolean }) {
  return (
    <button type="button" aria-disabled={unavailable} onClick={() => !unavailable && onPress()}>
      {label}
    </button>
  );
}

/** TransportControls steps, plays, pauses, finishes and resets a run. */
export function TransportControls({ run, speed, onSpeedChange }: TransportControlsProps) {
  const sent = run.view?.packets.length ?? 0;
  const finished = run.view?.finished ?? true;
  return (
    <div className="transport" role="toolbar" aria-label="Run">
      <ControlButton label="Step" onPress={run.step} unavailable={finished || run.playing} />
      {run.playing ? (
        <ControlButton label="Pause" onPress={run.pause} unavailable={false} />
      ) : (
        <ControlButton label="Play" onPress={run.play} unavailable={finished} />
      )}
      <ControlButton label="Run to end" onPress={run.finish} unavailable={finished} />
      <ControlButton label="Reset" onPress={run.reset} unavailable={sent === 0} />
      <SelectField
        label="Speed"
        value={String(speed)}
        options={speeds.map((value) => ({ value: String(value), label: `${value} packet${value === 1 ? '' : 's'}/s` }))}
        onChange={(value) => onSpeedChange(Number(value))}
      />
      <p className="progress" aria-live="off">
        Packet {sent} of {run.view?.plannedPackets ?? 0}
        {finished && sent > 0 ? ' · finished' : ''}
      </p>
    </div>
  );
}
