/**
 * The site's addresses, in one place. Every page is index.html with a query: ?lab=<page> names
 * the page (the navigation's own names), and each page keeps what is on show in its own
 * parameters, so that a reload or a shared link shows the same. Nothing else reads or writes the
 * address bar: pages ask here what it says, for links to each other, and to change it.
 */

/** The pages, by their ?lab= name, in the navigation's order. */
export const pageNames = ['fec', 'channel', 'experiments', 'sign-in', 'studies', 'sheets'] as const;

export type PageName = (typeof pageNames)[number];

/** The page of an address without ?lab=: the one a student opens first. */
export const defaultPage: PageName = 'fec';

/** Former names that still open their page, so that links written with them keep working. */
const formerNames: Record<string, PageName> = { class: 'sign-in' };

/** What the address asks for: a page, or a name that is none (said on the page, not guessed). */
export type PageRequest = { page: PageName; formerName?: string } | { unknown: string };

const isPageName = (name: string): name is PageName => (pageNames as readonly string[]).includes(name);

/** requestedPage reads which page the address names; no ?lab= (or an empty one) is the default page. */
export function requestedPage(search: string = window.location.search): PageRequest {
  const name = new URLSearchParams(search).get('lab');
  if (name === null || name === '') return { page: defaultPage };
  if (isPageName(name)) return { page: name };
  const renamed = formerNames[name];
  return renamed ? { page: renamed, formerName: name } : { unknown: name };
}

/** renamedAddress is an address given by a former page name, with the page's name of now: the rest as it was. */
export function renamedAddress(page: PageName, search: string = window.location.search): string {
  const query = new URLSearchParams(search);
  query.set('lab', page);
  return `?${query.toString()}`;
}

/** addressParam is one parameter of the address, null when absent or empty. */
export function addressParam(name: string, search: string = window.location.search): string | null {
  return new URLSearchParams(search).get(name) || null;
}

/** hrefOf writes a page's address with its parameters, in order; absent ones are left out. */
function hrefOf(page: PageName, parameters: Record<string, string | number | null | undefined> = {}): string {
  const query = new URLSearchParams({ lab: page });
  for (const [name, value] of Object.entries(parameters)) if (value !== null && value !== undefined) query.set(name, String(value));
  return `?${query.toString()}`;
}

/** The experiment console's two sections: single runs (the default) and campaigns. */
export type ConsoleSection = 'runs' | 'campaigns';

/** Which report the Studies page shows: the recipe's shipped one, every full run together, or one study run (c…). */
export type ReportChoice = 'shipped' | 'full' | string;

const reportChoicePattern = /^(shipped|full|c[0-9a-f]{1,32})$/;

/** The address of each page, and of what it can have on show. */
export const paths = {
  page: (page: PageName) => hrefOf(page),
  /** A browser lab with every setting of its state spelled out, so that the link is a complete preset. */
  lab: (page: 'fec' | 'channel', state: Record<string, string | number>) => hrefOf(page, state),
  experiments: {
    section: (section: ConsoleSection) => hrefOf('experiments', { view: section === 'campaigns' ? 'campaigns' : null }),
    run: (runId: string) => hrefOf('experiments', { run: runId }),
    campaign: (campaignId: string) => hrefOf('experiments', { view: 'campaigns', campaign: campaignId }),
  },
  studies: {
    study: (studyId: string) => hrefOf('studies', { study: studyId }),
    report: (studyId: string | null, report: ReportChoice) => hrefOf('studies', { study: studyId, report }),
  },
  sheets: {
    list: () => hrefOf('sheets'),
    sheet: (sheetId: string) => hrefOf('sheets', { sheet: sheetId }),
  },
};

/** What each page has on show, as its address says (null: nothing chosen, the page's default). */
export const inAddress = {
  consoleSection: (search?: string): ConsoleSection => (addressParam('view', search) === 'campaigns' ? 'campaigns' : 'runs'),
  run: (search?: string) => addressParam('run', search),
  campaign: (search?: string) => addressParam('campaign', search),
  study: (search?: string) => addressParam('study', search),
  report: (search?: string): ReportChoice | null => {
    const choice = addressParam('report', search);
    return choice !== null && reportChoicePattern.test(choice) ? choice : null;
  },
  sheet: (search?: string) => addressParam('sheet', search),
};

/** currentSearch is the address's query, for a lab reading its settings from it. */
export const currentSearch = () => window.location.search;

/** openAddress shows href as a new history entry: Back returns to what was on show before. */
export function openAddress(href: string): void {
  if (href !== window.location.search) window.history.pushState(null, '', href);
}

/** replaceAddress puts href in the address without a new history entry (a setting changed, a name made current). */
export function replaceAddress(href: string): void {
  if (href !== window.location.search) window.history.replaceState(null, '', href);
}

/** onAddressChange calls listener when Back or Forward changes the address; returns the unsubscriber. */
export function onAddressChange(listener: () => void): () => void {
  window.addEventListener('popstate', listener);
  return () => window.removeEventListener('popstate', listener);
}
