import { Component, type ReactNode } from 'react';

interface PageLoadFailureProps {
  /** The page's title, for the sentence. */
  page: string;
  children: ReactNode;
}

/**
 * PageLoadFailure says so when a page's code does not load (the server went away, or the site was
 * rebuilt under an open page: the old chunk is gone) or its first drawing throws, rather than
 * leaving the page blank.
 */
export class PageLoadFailure extends Component<PageLoadFailureProps, { message: string | null }> {
  state: { message: string | null } = { message: null };

  static getDerivedStateFromError(error: unknown) {
    return { message: error instanceof Error ? error.message : String(error) };
  }

  render() {
    if (this.state.message === null) return this.props.children;
    return (
      <p className="error" role="alert">
        The {this.props.page} page did not load: {this.state.message}. Reloading the page may help.
      </p>
    );
  }
}
