import { useCallback, useEffect, useState } from 'react';

/**
 * The console's address: ?lab=experiments is the single runs (&run=<id> the one on show);
 * &view=campaigns the campaigns (&campaign=<id> the one on show). A reload or a shared link
 * reopens the same.
 */

export type ConsoleSection = 'runs' | 'campaigns';

/** consoleSection is the section the address asks for. */
export const consoleSection = (): ConsoleSection =>
  new URLSearchParams(window.location.search).get('view') === 'campaigns' ? 'campaigns' : 'runs';

/** consoleHref is the console's address with the given parameters, keeping the page's others (the lab). */
function consoleHref(parameters: { view?: ConsoleSection; run?: string; campaign?: string }): string {
  const query = new URLSearchParams(window.location.search);
  for (const name of ['view', 'run', 'campaign']) query.delete(name);
  if (parameters.view === 'campaigns') query.set('view', 'campaigns');
  if (parameters.run) query.set('run', parameters.run);
  if (parameters.campaign) query.set('campaign', parameters.campaign);
  return `?${query.toString()}`;
}

/** sectionHref is the address of a section of the console, nothing opened. */
export const sectionHref = (section: ConsoleSection) => consoleHref({ view: section });

/** campaignHref is the address of the console showing a campaign. */
export const campaignHref = (campaignId: string) => consoleHref({ view: 'campaigns', campaign: campaignId });

/** runOfCampaignHref opens one of a campaign's runs in the single-run view (its charts, its summary). */
export const runOfCampaignHref = (runId: string) => consoleHref({ run: runId });

/** The campaign the address names, whatever it is: the backend says when it has no such campaign. */
function campaignInAddress(): string | null {
  return new URLSearchParams(window.location.search).get('campaign') || null;
}

/**
 * useCampaignInUrl keeps the campaign on show in the address; opening one adds a history entry,
 * and Back returns to the previous one.
 */
export function useCampaignInUrl(): [string | null, (campaignId: string) => void] {
  const [campaignId, setCampaignId] = useState(campaignInAddress);
  useEffect(() => {
    const follow = () => setCampaignId(campaignInAddress());
    window.addEventListener('popstate', follow);
    return () => window.removeEventListener('popstate', follow);
  }, []);
  const open = useCallback((next: string) => {
    if (next !== campaignInAddress()) window.history.pushState(null, '', campaignHref(next));
    setCampaignId(next);
  }, []);
  return [campaignId, open];
}
