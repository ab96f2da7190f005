import type { PageName } from './paths';

/**
 * What the navigation calls each page and says of it under its title. A page's ?lab= name
 * (config/paths.ts) is its title's own words, so that an address reads as the link that opens it.
 */
export const pageTexts: Record<PageName, { title: string; blurb: string }> = {
  fec: { title: 'Sliding-window FEC lab', blurb: 'Send real bytes through S(k,z), packet by packet.' },
  channel: { title: 'Channel lab', blurb: 'Loss patterns, bursts, and what S(k,z) leaves behind.' },
  experiments: {
    title: 'Experiments',
    blurb: 'Real transports over an emulated GEO path, run by the satlab backend and watched live.',
  },
  'sign-in': {
    title: 'Sign in',
    blurb: 'For a class on a shared satlab server: the instructor signs in with their token, students join with the class code.',
  },
  studies: {
    title: 'Studies',
    blurb: 'Published SATCOM studies rerun by satlab: its figures beside theirs, and which of their conclusions hold.',
  },
  sheets: {
    title: 'Lab sheets',
    blurb: 'Guided labs for students: what to try, what to predict, what to measure, with the labs and runs built in.',
  },
};
