import { apiUrl } from './url';

/** A 422's entry: the field's path in loc, the sentence in msg. */
export interface ProblemDetail {
  loc: (string | number)[];
  msg: string;
  type?: string;
}

/** The page is served without the satlab backend (a static copy of the site): there is no API here. */
export class BackendMissingError extends Error {
  constructor(detail: string) {
    super(`This page is served without the satlab backend (${detail}).`);
    this.name = 'BackendMissingError';
  }
}

/** backendAddress is where this page expects the backend's API: api/ beside the page. */
export const backendAddress = () => apiUrl('');

/** The backend that serves this page does not answer now (stopped, restarting, the network gone). */
export class BackendUnreachableError extends Error {
  constructor() {
    super(`The backend at ${backendAddress()} is not answering.`);
    this.name = 'BackendUnreachableError';
  }
}

/** The API answered with an error; problems holds a 422's entries, each naming its field. */
export class ApiError extends Error {
  readonly status: number;
  readonly problems: ProblemDetail[];

  constructor(status: number, detail: unknown) {
    const problems = Array.isArray(detail) ? (detail as ProblemDetail[]) : [];
    const message =
      typeof detail === 'string' ? detail : problems.length > 0 ? problems.map((problem) => problem.msg).join('; ') : `HTTP ${status}`;
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.problems = problems;
  }
}

export async function request<Body>(path: string, init?: RequestInit): Promise<Body> {
  const url = apiUrl(path);
  let response: Response;
  try {
    response = await fetch(url, { ...init, headers: { accept: 'application/json', ...init?.headers } });
  } catch {
    throw new BackendUnreachableError();
  }
  // A proxy in front of a stopped backend answers 502-504 of its own.
  if (response.status >= 502 && response.status <= 504) throw new BackendUnreachableError();
  // A static server answers 404, or its index.html, where the API would be.
  if (!response.headers.get('content-type')?.includes('application/json')) {
    throw new BackendMissingError(`${url} answered ${response.status} without JSON`);
  }
  const body = (await response.json()) as { detail?: unknown };
  if (!response.ok) throw new ApiError(response.status, body.detail);
  return body as Body;
}

export const postJson = (body?: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: body === undefined ? undefined : JSON.stringify(body),
});

