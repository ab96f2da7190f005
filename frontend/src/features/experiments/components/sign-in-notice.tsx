import { paths } from '../../../config/paths';

/** SignInNotice says that this server wants a sign-in before the form can send anything, and links to Sign in. */
export function SignInNotice({ what }: { what: string }) {
  return (
    <p className="notice" role="note">
      This server wants to know who starts {what}: <a href={paths.page('sign-in')}>sign in</a> first, as the instructor or with the
      class code. Stored {what} can still be opened.
    </p>
  );
}
