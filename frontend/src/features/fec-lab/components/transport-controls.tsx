import { SelectField } from '../../../components/select-field';
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

/** TransportControls steps, plays, pauses, finishes and resets a run. */
export function TransportControls({ run, speed, onSpeedChange }: TransportControlsProps) {
  const sent = run.view?.packets.length ?? 0;
  const finished = run.view?.finished ?? true;
  return (
    <div className="transport" role="toolbar" aria-label="Run">
      <button type="button" onClick={run.step} disabled={finished || run.playing}>
        Step
      </button>
      {run.playing ? (
        <button type="button" onClick={run.pause}>
          Pause
        </button>
      ) : (
        <button type="button" onClick={run.play} disabled={finished}>
          Play
        </button>
      )}
      <button type="button" onClick={run.finish} disabled={finished}>
        Run to end
      </button>
      <button type="button" onClick={run.reset} disabled={sent === 0}>
        Reset
      </button>
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
