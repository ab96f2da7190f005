import { postJson, request } from '../../../lib/api/request';

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

// The session cookie goes with every request: same origin (it is HttpOnly and SameSite=Strict,
// so scripts never see it).
const post = <Body>(path: string, body: unknown = {}) => request<Body>(path, postJson(body));

export const getMe = () => request<Me>('auth/me');
export const signInInstructor = (token: string) => post<Me>('auth/instructor', { token });
export const joinClass = (classCode: string, name: string) => post<Me>('auth/student', { class_code: classCode, name });
export const signOut = () => post<{ message: string }>('auth/logout');
export const getClass = () => request<ClassInfo>('class');
export const newClassCode = () => post<{ class_code: string }>('class/code');
export const getLimits = () => request<Limit[]>('limits');
/** What this server (often a container) cannot do that runs need, each a sentence. */
export const getLimitations = async () => (await request<{ limitations?: string[] }>('capabilities')).limitations ?? [];
