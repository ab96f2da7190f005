import { ChannelLab } from '../../features/channel-lab';
import { CodecLab } from '../codec-lab';

/** The channel lab, on the WebAssembly codec. */
export default function ChannelPage() {
  return <CodecLab>{(codec) => <ChannelLab codec={codec} />}</CodecLab>;
}
