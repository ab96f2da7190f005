import { ClassPage } from '../../features/auth';

/** Signing in to a class on a shared satlab server. */
export default function SignInPage() {
  return <ClassPage />;
}
