export { ClassPage } from './components/class-page';
