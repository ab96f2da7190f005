import { pageTexts } from '../../config/pages';
import { ChannelLab, channelLabSettings } from '../../features/channel-lab';
import { FecLab, fecLabSettings } from '../../features/fec-lab';
import { type SheetLabs, SheetsPage } from '../../features/sheets';

/** The browser labs a sheet's blocks mount: composed here, so that the sheets import no other feature. */
const labs: SheetLabs = {
  fec: { title: pageTexts.fec.title, settings: fecLabSettings, Lab: FecLab },
  channel: { title: pageTexts.channel.title, settings: channelLabSettings, Lab: ChannelLab },
};

/** The lab sheets, with the browser labs built in. */
export default function Sheets() {
  return <SheetsPage labs={labs} />;
}
