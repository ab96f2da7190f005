import { ChannelLab } from '../features/channel-lab';
import { FecLab } from '../features/fec-lab';
import { useCodec } from '../lib/codec';

const labs = [
  { id: 'fec', title: 'Sliding-window FEC lab', blurb: 'Send real bytes through S(k,z), packet by packet.' },
  { id: 'channel', title: 'Channel lab', blurb: 'Loss patterns, bursts, and what S(k,z) leaves behind.' },
] as const;

/** The lab the address asks for (?lab=…), the FEC lab by default. */
function currentLab(): (typeof labs)[number] {
  const requested = new URLSearchParams(window.location.search).get('lab');
  return labs.find((lab) => lab.id === requested) ?? labs[0];
}

/** App is the labs' shell: a header that switches lab by link (so each lab has its own URL) and the lab. */
export function App() {
  const lab = currentLab();
  const codec = useCodec();
  return (
    <>
      <a className="skip-link" href="#lab">
        Skip to the lab
      </a>
      <header className="app-header">
        <p className="brand">
          satlab <span>labs</span>
        </p>
        <nav aria-label="Labs">
          <ul>
            {labs.map((candidate) => (
              <li key={candidate.id}>
                <a href={`?lab=${candidate.id}`} aria-current={candidate.id === lab.id ? 'page' : undefined}>
                  {candidate.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        {codec.status === 'ready' && <p className="kernel">codec: WebAssembly, GF(2^8) kernel {codec.codec.gfKernel()}</p>}
      </header>
      <main id="lab">
        <h1>{lab.title}</h1>
        <p className="lede">{lab.blurb}</p>
        {codec.status === 'loading' && <p role="status">Loading the codec…</p>}
        {codec.status === 'failed' && (
          <p className="error" role="alert">
            {codec.message}
          </p>
        )}
        {codec.status === 'ready' && (lab.id === 'fec' ? <FecLab codec={codec.codec} /> : <ChannelLab codec={codec.codec} />)}
      </main>
    </>
  );
}
