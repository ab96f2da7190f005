export { ExperimentConsole } from './components/experiment-console';
