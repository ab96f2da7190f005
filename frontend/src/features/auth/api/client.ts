import { postJson, request, type Schemas } from '../../../shared/api';
import type { Me } from '../../../shared/session';
import { type OpenApiDocument, quotaLimitsFromOpenApi } from './quota-limits';

/** A student of the class: their personal key is what signing in as them again needs. */
export type Student = Schemas['StudentRow'];

/** What the instructor shows and watches (GET /api/class). */
export type ClassInfo = Schemas['ClassPublic'];

/** A quota the instructor may change (GET api/class/quotas): its default is the environment's value. */
export type Quota = Schemas['Quota'];

/** The body of PUT api/class/quotas: every quota's value, by name. */
export type QuotaValues = Record<string, number>;

// Who this browser is and the server's limits are shared/session's: the console asks them too.
export { type Limit, type Me, getLimits, getMe } from '../../../shared/session';

// The session cookie goes with every request: same origin (it is HttpOnly and SameSite=Strict,
// so scripts never see it).
const post = <Body>(path: string, body: unknown = {}) => request<Body>(path, postJson(body));

export const signInInstructor = (token: string) => post<Me>('auth/instructor', { token });
/** joinClass signs a student in; a name taken in the class needs its key (this browser keeps the keys it was given). */
export const joinClass = (classCode: string, name: string, key = '') =>
  post<Me>('auth/student', { class_code: classCode, name, ...(key ? { key } : {}) });
export const signOut = () => post<Schemas['Message']>('auth/logout');
export const getClass = () => request<ClassInfo>('class');
export const newClassCode = () => post<{ class_code: string }>('class/code');
/** removeStudent ends their sessions, cancels their unfinished runs and frees their name. */
export const removeStudent = (studentId: string) =>
  request<Schemas['Message']>(`class/students/${encodeURIComponent(studentId)}`, { method: 'DELETE' });
/** newStudentKey replaces a student's personal key (the old one no longer signs in) and ends their sessions. */
export const newStudentKey = (studentId: string) => post<Student>(`class/students/${encodeURIComponent(studentId)}/key`);
export const getQuotas = () => request<Quota[]>('class/quotas');
/** A preset of labs/ (GET api/labs), as the instructor chooses among them. */
export type Preset = Schemas['LabPublic'];
export const getPresets = async () => (await request<Schemas['LabsPublic']>('labs')).data;
/** setEnabledLabs chooses the presets students may run; null: every preset, those added later too. */
export const setEnabledLabs = (labs: string[] | null) =>
  request<Schemas['EnabledLabs']>('class/labs', { ...postJson({ enabled_labs: labs }), method: 'PUT' });
/** setQuotas sends every quota; a 422 ApiError names each field above its ceiling, and nothing changes. */
export const setQuotas = (values: QuotaValues) => request<Quota[]>('class/quotas', { ...postJson(values), method: 'PUT' });
/** The range of each quota field, from the backend's OpenAPI document (its ceilings are this server's). */
export const getQuotaLimits = async () => quotaLimitsFromOpenApi(await request<OpenApiDocument>('openapi.json'));
/** What this server (often a container) cannot do that runs need, each a sentence. */
export const getLimitations = async () => (await request<Schemas['Capabilities']>('capabilities')).limitations;
