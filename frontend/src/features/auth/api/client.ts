import { apiUrl } from '../../experiments/api/api-url';
import { ApiError, BackendMissingError } from '../../experiments/api/client';

/** Who this browser's session is (GET /api/auth/me); open_access: the server needs no sign-in. */
export interface Me {
  role: 'instructor' | 'student' | 'anonymous';
  id: string | null;
  name: string | null;
  open_access: boolean;
}

export interface Student {
  student_id: string;
  name: string;
  joined_at: number;
  runs: number;
}

/** What the instructor shows and watches (GET /api/class). */
export interface ClassInfo {
  class_code: string;
  enabled_labs: string[] | null;
  students: Student[];
  database_bytes: number;
  max_database_bytes: number;
  retention_days: number;
}

export interface Limit {
  name: string;
  value: number;
  description: string;
}

/**
 * call sends one request to the API with the session cookie (same origin: the cookie is HttpOnly
 * and SameSite=Strict, so scripts never see it). No JSON in the answer means no backend here.
 */
async function call<Body>(path: string, init?: RequestInit): Promise<Body> {
  const url = apiUrl(path);
  let response: Response;
  try {
    response = await fetch(url, { ...init, headers: { accept: 'application/json', 'content-type': 'application/json' } });
  } catch (error) {
    throw new BackendMissingError(`${url} could not be reached: ${String(error)}`);
  }
  if (!response.headers.get('content-type')?.includes('application/json')) {
    throw new BackendMissingError(`${url} answered ${response.status} without JSON`);
  }
  const body = (await response.json()) as { detail?: unknown };
  if (!response.ok) throw new ApiError(response.status, body.detail);
  return body as Body;
}

const post = <Body>(path: string, body: unknown = {}) => call<Body>(path, { method: 'POST', body: JSON.stringify(body) });

export const getMe = () => call<Me>('auth/me');
export const signInInstructor = (token: string) => post<Me>('auth/instructor', { token });
export const joinClass = (classCode: string, name: string) => post<Me>('auth/student', { class_code: classCode, name });
export const signOut = () => post<{ message: string }>('auth/logout');
export const getClass = () => call<ClassInfo>('class');
export const newClassCode = () => post<{ class_code: string }>('class/code');
export const getLimits = () => call<Limit[]>('limits');
/** What this server (often a container) cannot do that runs need, each a sentence. */
export const getLimitations = async () => (await call<{ limitations?: string[] }>('capabilities')).limitations ?? [];
