import { request, type Schemas } from '../api';

/**
 * Who this browser's session is (GET /api/auth/me); open_access: the server needs no sign-in; key: a
 * student's personal key, what signing in again with their name from another browser needs.
 */
export type Me = Schemas['Me'];

/** One of the server's quotas and limits (GET /api/limits): its name, value and what it limits. */
export type Limit = Schemas['Limit'];

export const getMe = () => request<Me>('auth/me');
export const getLimits = () => request<Limit[]>('limits');

/** What the pages may offer a session: whether it must sign in first, and whether it is held to the students' quotas. */
export interface Session {
  me: Me;
  /** The server's limits by name; empty when it does not list them to this session (not signed in). */
  limits: Record<string, number>;
}

/** mustSignIn: the server wants a sign-in and this session has none. */
export const mustSignIn = (me: Me) => me.role === 'anonymous' && !me.open_access;

/** heldToStudentQuotas: the students' quotas apply to what this session asks for. */
export const heldToStudentQuotas = (me: Me) => me.role === 'student';

/** mayStartCampaigns: campaigns (and so study runs) are the instructor's unless student_campaigns lets students start them. */
export const mayStartCampaigns = (session: Session) =>
  !mustSignIn(session.me) && (!heldToStudentQuotas(session.me) || (session.limits.student_campaigns ?? 0) > 0);
