import { FecLab } from '../../features/fec-lab';
import { CodecLab } from '../codec-lab';

/** The sliding-window FEC lab, on the WebAssembly codec. */
export default function FecPage() {
  return <CodecLab>{(codec) => <FecLab codec={codec} />}</CodecLab>;
}
