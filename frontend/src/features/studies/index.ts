export { StudiesPage } from './components/studies-page';
