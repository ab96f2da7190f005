import { ClassPage } from '../features/auth';
import { ChannelLab } from '../features/channel-lab';
import { ExperimentConsole } from '../features/experiments';
import { FecLab } from '../features/fec-lab';
import { SheetsPage } from '../features/sheets';
import { StudiesPage } from '../features/studies';
import { useCodec } from '../lib/codec';

const pages = [
  { id: 'fec', title: 'Sliding-window FEC lab', blurb: 'Send real bytes through S(k,z), packet by packet.' },
  { id: 'channel', title: 'Channel lab', blurb: 'Loss patterns, bursts, and what S(k,z) leaves behind.' },
  {
    id: 'experiments',
    title: 'Experiments',
    blurb: 'Real transports over an emulated GEO path, run by the satlab backend and watched live.',
  },
  {
    id: 'class',
    title: 'Sign in',
    blurb: 'For a class on a shared satlab server: the instructor signs in with their token, students join with the class code.',
  },
  {
    id: 'studies',
    title: 'Studies',
    blurb: 'Published SATCOM studies rerun by satlab: its figures beside theirs, and which of their conclusions hold.',
  },
  {
    id: 'sheets',
    title: 'Lab sheets',
    blurb: 'Guided labs for students: what to try, what to predict, what to measure, with the labs and runs built in.',
  },
] as const;

type Page = (typeof pages)[number];

/** The page the address asks for (?lab=…), the FEC lab by default. */
function currentPage(): Page {
  const requested = new URLSearchParams(window.location.search).get('lab');
  return pages.find((page) => page.id === requested) ?? pages[0];
}

/**
 * App is the labs' shell: a header that switches page by link (so each has its own URL) and the
 * page. The browser labs run on the WebAssembly codec; the experiment console on the backend.
 */
export function App() {
  const page = currentPage();
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
            {pages.map((candidate) => (
              <li key={candidate.id}>
                <a href={`?lab=${candidate.id}`} aria-current={candidate.id === page.id ? 'page' : undefined}>
                  {candidate.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="lab">
        <h1>{page.title}</h1>
        <p className="lede">{page.blurb}</p>
        {page.id === 'experiments' ? (
          <ExperimentConsole />
        ) : page.id === 'class' ? (
          <ClassPage />
        ) : page.id === 'studies' ? (
          <StudiesPage />
        ) : page.id === 'sheets' ? (
          <SheetsPage />
        ) : (
          <CodecLab lab={page.id} />
        )}
      </main>
    </>
  );
}

/** CodecLab loads the WebAssembly codec, then runs one of the browser labs on it. */
function CodecLab({ lab }: { lab: 'fec' | 'channel' }) {
  const codec = useCodec();
  if (codec.status === 'loading') return <p role="status">Loading the codec…</p>;
  if (codec.status === 'failed') {
    return (
      <p className="error" role="alert">
        {codec.message}
      </p>
    );
  }
  return (
    <>
      <p className="kernel">codec: WebAssembly, GF(2^8) kernel {codec.codec.gfKernel()}</p>
      {lab === 'fec' ? <FecLab codec={codec.codec} /> : <ChannelLab codec={codec.codec} />}
    </>
  );
}
