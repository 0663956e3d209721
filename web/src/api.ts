// The one way the console talks to the server: same-origin JSON with the session cookie. Every write is
// sent as application/json (the server's CSRF rule), and every error comes back as an ApiError carrying
// the server's own `{error, code, ...}` body, which pages show as it is.
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { error: string; code?: string; [detail: string]: unknown },
  ) {
    super(body.error);
  }
  get code(): string | undefined {
    return this.body.code;
  }
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export async function api<T>(method: Method, path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: { accept: 'application/json', ...(method === 'GET' ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    throw new ApiError(0, { error: 'The server does not answer: check that it is running', code: 'network' });
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!response.ok) {
    const errorBody = (parsed && typeof parsed === 'object' && 'error' in parsed ? parsed : { error: `${response.status} ${response.statusText}` }) as ApiError['body'];
    if (response.status === 401) window.dispatchEvent(new CustomEvent('session-ended'));
    throw new ApiError(response.status, errorBody);
  }
  return parsed as T;
}

export const get = <T>(path: string) => api<T>('GET', path);
export const post = <T>(path: string, body?: unknown) => api<T>('POST', path, body ?? {});

export function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') search.set(k, String(v));
  const text = search.toString();
  return text ? `?${text}` : '';
}
