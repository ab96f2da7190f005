import { ExperimentConsole } from '../../features/experiments';

/** The experiment console, on the satlab backend. */
export default function ExperimentsPage() {
  return <ExperimentConsole />;
}
