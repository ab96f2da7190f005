import { StudiesPage } from '../../features/studies';

/** The published studies beside satlab's figures. */
export default function Studies() {
  return <StudiesPage />;
}
