export interface ListHeadProps {
  /** The id the list's section and table are labelled by. */
  headingId: string;
  title: string;
  /** Why the list did not load, if it did not. */
  error: string | null;
  onRefresh: () => void;
}

/** ListHead heads a console list: its title with a Refresh button, then why the list did not load, if it did not. */
export function ListHead({ headingId, title, error, onRefresh }: ListHeadProps) {
  return (
    <>
      <div className="run-head">
        <h2 id={headingId}>{title}</h2>
        <button type="button" onClick={onRefresh}>
          Refresh
        </button>
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
