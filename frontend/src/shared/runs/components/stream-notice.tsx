export interface StreamNoticeProps {
  /** The live stream's state, as the run or campaign view holds it. */
  stream: string;
  /** What is followed, and its id: "run", "0e5015". */
  what: string;
  id: string;
  onReconnect: () => void;
}

/** StreamNotice says when the backend does not know the run or campaign, or its live stream closed early. */
export function StreamNotice({ stream, what, id, onReconnect }: StreamNoticeProps) {
  if (stream === 'not-found') {
    return (
      <p className="error" role="alert">
        The backend has no {what} {id}.
      </p>
    );
  }
  if (stream === 'lost') {
    return (
      <p className="notice" role="alert">
        The live stream closed before the {what} ended (was the backend restarted?).{' '}
        <button type="button" onClick={onReconnect}>
          Reconnect
        </button>
      </p>
    );
  }
  return null;
}
