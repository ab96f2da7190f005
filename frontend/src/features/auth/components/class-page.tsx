import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { paths } from '../../../config/paths';
import { BackendMissingError, BackendUnreachableError } from '../../../shared/api';
import { limitNameInWords, limitValueInWords } from '../../../shared/session';
import {
  type ClassInfo,
  getClass,
  getLimitations,
  getLimits,
  getMe,
  joinClass,
  type Limit,
  type Me,
  newClassCode,
  newStudentKey,
  removeStudent,
  signInInstructor,
  signOut,
} from '../api/client';
import '../auth.css';
import { PresetsForm } from './presets-form';
import { QuotasForm } from './quotas-form';

type Session = { status: 'loading' } | { status: 'missing' } | { status: 'failed'; message: string } | { status: 'known'; me: Me };

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * ClassPage is where people sign in: the instructor with their token (then they see the class code
 * to show, the students, the storage, the quotas and presets to change and what this server cannot do), students with the class code
 * and a name (then they see what they may run). A server bound to loopback without a token needs no
 * sign-in, and says so.
 */
export function ClassPage() {
  const [session, setSession] = useState<Session>({ status: 'loading' });
  const refresh = useCallback(() => {
    getMe().then(
      (me) => setSession({ status: 'known', me }),
      (error: unknown) =>
        setSession(error instanceof BackendMissingError || error instanceof BackendUnreachableError ? { status: 'missing' } : { status: 'failed', message: message(error) }),
    );
  }, []);
  useEffect(refresh, [refresh]);

  if (session.status === 'loading') return <p role="status">Checking your session…</p>;
  if (session.status === 'missing') {
    return <p>Signing in needs the satlab backend; this copy of the site has the browser labs only, which need no sign-in.</p>;
  }
  if (session.status === 'failed') {
    return (
      <p className="error" role="alert">
        {session.message}
      </p>
    );
  }
  const { me } = session;
  const leave = () => signOut().then(refresh, refresh);
  if (me.open_access) {
    return (
      <>
        <p role="note">
          This server needs no sign-in: it listens on this machine only (127.0.0.1) and has no instructor token, so you act
          as the instructor.
        </p>
        <InstructorDesk />
      </>
    );
  }
  if (me.role === 'anonymous') return <SignIn onSignedIn={refresh} />;
  return (
    <>
      <p className="signed-in">
        Signed in as <strong>{me.role === 'instructor' ? 'the instructor' : me.name}</strong>
        {me.role === 'student' ? ', a student of this class' : ''}.{' '}
        <button type="button" onClick={leave}>
          Sign out
        </button>
      </p>
      {me.role === 'instructor' ? <InstructorDesk /> : <StudentView personalKey={me.key ?? null} />}
    </>
  );
}

function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [token, setToken] = useState('');
  const [classCode, setClassCode] = useState('');
  const [name, setName] = useState('');
  const [key, setKey] = useState('');
  const [refusal, setRefusal] = useState<{ form: 'instructor' | 'student'; message: string } | null>(null);

  const submit = (form: 'instructor' | 'student', attempt: () => Promise<Me>) => (event: FormEvent) => {
    event.preventDefault();
    setRefusal(null);
    attempt().then(onSignedIn, (error: unknown) => setRefusal({ form, message: message(error) }));
  };
  const refusalOf = (form: 'instructor' | 'student') =>
    refusal?.form === form ? (
      <p className="error" role="alert">
        {refusal.message}
      </p>
    ) : null;

  return (
    <div className="panel-row">
      <form className="panel" aria-label="Join the class" onSubmit={submit('student', () => joinClass(classCode, name, key))}>
        <h2>Students</h2>
        <p className="hint">The class code is on the instructor's screen.</p>
        <label className="field">
          Class code
          <input value={classCode} onChange={(event) => setClassCode(event.target.value)} autoComplete="off" required />
        </label>
        <label className="field">
          Your name
          <input value={name} onChange={(event) => setName(event.target.value)} maxLength={40} required />
        </label>
        <label className="field">
          Your personal key (from another computer)
          <input value={key} onChange={(event) => setKey(event.target.value)} autoComplete="off" maxLength={40} />
        </label>
        <p className="hint">This browser remembers your key; on another computer type the one shown when you joined, or ask the instructor.</p>
        <p>
          <button type="submit">Join</button>
        </p>
        {refusalOf('student')}
      </form>
      <form className="panel" aria-label="Instructor sign-in" onSubmit={submit('instructor', () => signInInstructor(token))}>
        <h2>Instructor</h2>
        <p className="hint">The token is in the server's log at its first start, or is SATLAB_INSTRUCTOR_TOKEN.</p>
        <label className="field">
          Instructor token
          <input type="password" value={token} onChange={(event) => setToken(event.target.value)} required />
        </label>
        <p>
          <button type="submit">Sign in as instructor</button>
        </p>
        {refusalOf('instructor')}
      </form>
    </div>
  );
}

const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

function InstructorDesk() {
  const [info, setInfo] = useState<ClassInfo | null>(null);
  const [limitations, setLimitations] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const load = useCallback(() => {
    getClass().then(setInfo, (error: unknown) => setProblem(message(error)));
    getLimitations().then(setLimitations, (error: unknown) => setProblem(message(error)));
  }, []);
  useEffect(load, [load]);
  const act = (change: () => Promise<unknown>) => change().then(load, (error: unknown) => setProblem(message(error)));

  return (
    <div className="class-desk">
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      {limitations.length > 0 && (
        <section className="panel" aria-label="What this server cannot do">
          <h2>What this server cannot do</h2>
          <ul>
            {limitations.map((limitation) => (
              <li key={limitation}>{limitation}</li>
            ))}
          </ul>
        </section>
      )}
      {info && (
        <div className="panel-row">
          <section className="panel" aria-label="Class code">
            <h2>Class code</h2>
            <p className="class-code">
              <output aria-label="The class code">{info.class_code}</output>
            </p>
            <p className="hint">Students open this page and join with it.</p>
            <button type="button" onClick={() => newClassCode().then(load, (error: unknown) => setProblem(message(error)))}>
              New code
            </button>
          </section>
          <section className="panel" aria-label="Students">
            <h2>Students ({info.students.length})</h2>
            {info.students.length === 0 ? (
              <p className="muted">Nobody has joined yet.</p>
            ) : (
              <ul>
                {info.students.map((student) => (
                  <li key={student.student_id}>
                    {student.name} · {student.runs} runs · key <code>{student.key}</code>{' '}
                    <button type="button" aria-label={`New key for ${student.name}`} onClick={() => act(() => newStudentKey(student.student_id))}>
                      New key
                    </button>{' '}
                    <button type="button" aria-label={`Remove ${student.name}`} onClick={() => act(() => removeStudent(student.student_id))}>
                      Remove
                    </button>
                  </li>
                ))}
              </ul>
            )}
            <p className="hint">
              They run {info.enabled_labs === null ? 'every preset' : `these presets: ${info.enabled_labs.join(', ') || 'none'}`}.
              The database holds {megabytes(info.database_bytes)} of {megabytes(info.max_database_bytes)}; samples older than{' '}
              {info.retention_days} days are dropped.
            </p>
          </section>
        </div>
      )}
      <div className="panel-row">
        <QuotasForm onSaved={load} />
        {info && <PresetsForm enabled={info.enabled_labs} onSaved={load} />}
      </div>
    </div>
  );
}

function StudentView({ personalKey }: { personalKey: string | null }) {
  const [limits, setLimits] = useState<Limit[]>([]);
  useEffect(() => {
    getLimits().then(setLimits, () => setLimits([]));
  }, []);
  const quotas = limits.filter((limit) => limit.name.startsWith('student_'));
  return (
    <section className="panel" aria-label="What you may run">
      <h2>What you may run</h2>
      <p>
        Start runs of the presets in <a href={paths.page('experiments')}>Experiments</a>; you see your own runs and those the instructor
        shares.
      </p>
      {personalKey && (
        <p>
          Your personal key: <output aria-label="Your personal key">{personalKey}</output>. Note it: signing in with your name from
          another computer needs it (this browser remembers it).
        </p>
      )}
      <table>
        <tbody>
          {quotas.map((limit) => (
            <tr key={limit.name}>
              <th scope="row">{limitNameInWords(limit.name, limit.description)}</th>
              <td>{limitValueInWords(limit.name, limit.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
