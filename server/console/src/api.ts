import type { ItemIcon } from '@lootsmith/protocol';

// Relative to where the server mounted Lootsmith (`/` or a prefix such as `/loot/`).
const base = location.pathname.replace(/console\/.*$/, '');
export const url = (path: string) => base + path.replace(/^\//, '');
export const iconUrl = (icon: ItemIcon) => url(icon.url);

/** The session's CSRF token: in memory only, sent with every change. The credential is never kept. */
let csrf: string | undefined;
export const setCsrf = (token: string | undefined) => {
  csrf = token;
};

/** Called when the server says the session is over. */
let signedOut: () => void = () => {};
export const onSignedOut = (handler: () => void) => {
  signedOut = handler;
};

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/** Calls the admin API (the session cookie goes along); a refusal throws an ApiFailure with its message. */
export async function api<T>(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<T> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrf) headers['x-csrf-token'] = csrf;
  const res = await fetch(url(path), {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  });
  const json = await res.json().catch(() => null);
  if (!res.ok) {
    const error = json?.error ?? {};
    if (res.status === 401 && !path.endsWith('/admin/session')) signedOut();
    throw new ApiFailure(res.status, error.code ?? 'error', error.message ?? res.statusText, error.details);
  }
  return json as T;
}

/** `?a=1&b=2` from the values that are set. */
export function query(values: Record<string, string | number | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(values))
    if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const text = q.toString();
  return text ? `?${text}` : '';
}
