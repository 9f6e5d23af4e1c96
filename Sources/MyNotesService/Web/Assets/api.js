// @ts-check
// The REST API v1 as the app uses it. Knows HTTP and nothing of the page: each call
// resolves to what the server sent or rejects with an ApiError; a 401 to a signed-in
// request also fires a `session-expired` event, and what that means on screen is the
// app's business.

/** @typedef {import('./i18n.js').Translate} Translate */
/** @typedef {import('./store.js').Note} Note */
/** @typedef {import('./store.js').Draft} Draft */
/** @typedef {import('./store.js').SessionInfo} SessionInfo */
/** @typedef {(input: string, init: RequestInit) => Promise<Response>} Fetch */

/** A refused or failed request, its message in the page's language. */
export class ApiError extends Error {
  /**
   * @param {number} status the HTTP status; 0 when no answer came
   * @param {string} message the server's own `detail` when it sent one, else the app's
   * @param {unknown} [problem] the problem details document, when there was one
   */
  constructor(status, message, problem = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.problem = problem;
  }
}

/**
 * What to tell the user about `error`: an ApiError's message, else (a bug, or something
 * thrown below fetch) the network message.
 * @param {unknown} error
 * @param {Translate} t
 */
export function messageOf(error, t) {
  return error instanceof ApiError ? error.message : t('networkError');
}

/**
 * The HTTP status of a failed request; 0 when none came (or `error` is not an ApiError).
 * @param {unknown} error
 */
export function statusOf(error) {
  return error instanceof ApiError ? error.status : 0;
}

/**
 * The words for a refused request: the problem's `detail`, else its `title`, else the
 * status; a 429 adds when to try again.
 * @param {number} status
 * @param {unknown} problem
 * @param {string | null} retryAfter the `Retry-After` header
 * @param {Translate} t
 */
export function refusalMessage(status, problem, retryAfter, t) {
  const field = (/** @type {string} */ name) => {
    const value = problem && typeof problem === 'object'
      ? /** @type {Record<string, unknown>} */ (problem)[name] : undefined;
    return typeof value === 'string' && value ? value : '';
  };
  let message = field('detail') || field('title') || t('httpError', { status });
  const seconds = Number.parseInt(retryAfter ?? '', 10);
  if (status === 429 && Number.isFinite(seconds)) message += ' ' + t('retryAfter', { n: seconds });
  return message;
}

/**
 * An answer's JSON body; null when it has none or it is not JSON.
 * @param {Response} response
 */
async function jsonOf(response) {
  if (!/json/.test(response.headers.get('Content-Type') ?? '')) return null;
  try {
    return await response.json();
  } catch {
    return null;
  }
}

/** The name of the event fired when the server no longer accepts the token. */
export const SESSION_EXPIRED = 'session-expired';

export class Api extends EventTarget {
  /** @type {Fetch} */
  #fetch;
  /** @type {Translate} */
  #t;
  #acceptLanguage;
  /** @type {() => string | null} */
  #token;

  /**
   * @param {{
   *   fetch: Fetch, t: Translate, acceptLanguage: string, token: () => string | null
   * }} options `token` gives the signed-in user's token, or null
   */
  constructor({ fetch, t, acceptLanguage, token }) {
    super();
    this.#fetch = fetch;
    this.#t = t;
    this.#acceptLanguage = acceptLanguage;
    this.#token = token;
  }

  /**
   * One request. Resolves to the JSON body (null without one) and the `ETag`.
   * @param {string} method
   * @param {string} path
   * @param {{ body?: unknown, etag?: string | null, anonymous?: boolean }} options
   *   `anonymous`: send no token (signing in or up)
   * @returns {Promise<{ status: number, data: any, etag: string | null }>}
   */
  async request(method, path, { body, etag, anonymous = false } = {}) {
    /** @type {Record<string, string>} */
    const headers = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (etag) headers['If-Match'] = etag;
    const { response, token } = await this.#send(path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    }, anonymous);
    const data = await jsonOf(response);
    if (!response.ok) this.#refuse(response, data, token);
    return { status: response.status, data, etag: response.headers.get('ETag') };
  }

  /**
   * Opens the account's change stream (`text/event-stream`), resuming after `cursor` when
   * there is one. Resolves to the answer as soon as its headers came, its body still
   * streaming; rejects with an ApiError like any request (a 410 when `cursor` expired).
   * @param {string | null} cursor
   * @param {AbortSignal} signal ends the stream
   * @returns {Promise<Response>}
   */
  async changeStream(cursor, signal) {
    /** @type {Record<string, string>} */
    const headers = { Accept: 'text/event-stream' };
    if (cursor) headers['Last-Event-ID'] = cursor;
    const { response, token } = await this.#send(
      '/api/v1/changes/stream', { method: 'GET', headers, signal }, false);
    if (!response.ok) this.#refuse(response, await jsonOf(response), token);
    if (!/^text\/event-stream\b/.test(response.headers.get('Content-Type') ?? '')
      || !response.body) {
      response.body?.cancel().catch(() => {});
      throw new ApiError(response.status, this.#t('httpError', { status: response.status }));
    }
    return response;
  }

  /**
   * Sends one request with the page's language and (unless `anonymous`) the token.
   * @param {string} path
   * @param {{
   *   method: string, headers: Record<string, string>, body?: string, signal?: AbortSignal
   * }} init
   * @param {boolean} anonymous
   * @returns {Promise<{ response: Response, token: string | null }>}
   */
  async #send(path, init, anonymous) {
    /** @type {Record<string, string>} */
    const headers = { ...init.headers, 'Accept-Language': this.#acceptLanguage };
    const token = anonymous ? null : this.#token();
    if (token) headers.Authorization = `Bearer ${token}`;
    try {
      const response = await this.#fetch(path, {
        ...init, headers, cache: 'no-store', credentials: 'omit', redirect: 'error',
      });
      return { response, token };
    } catch (error) {
      if (init.signal?.aborted) throw error;
      throw new ApiError(0, this.#t('networkError'));
    }
  }

  /**
   * Throws the ApiError for a refused answer; a 401 to a signed-in request also fires
   * `session-expired`.
   * @param {Response} response
   * @param {unknown} data its problem document, if any
   * @param {string | null} token the token it carried
   * @returns {never}
   */
  #refuse(response, data, token) {
    const message = refusalMessage(
      response.status, data, response.headers.get('Retry-After'), this.#t);
    if (response.status === 401 && token) this.dispatchEvent(new Event(SESSION_EXPIRED));
    throw new ApiError(response.status, message, data);
  }

  /**
   * Signs in, or (`signup`) creates the account and signs in.
   * @param {'signin' | 'signup'} mode
   * @param {string} email
   * @param {string} password
   * @returns {Promise<{ email: string, token: string }>}
   */
  async authenticate(mode, email, password) {
    const path = mode === 'signup' ? '/api/v1/accounts' : '/api/v1/sessions';
    const { status, data } = await this.request('POST', path, {
      body: { email, password }, anonymous: true,
    });
    // Without a token there is no session, whatever the status said.
    if (typeof data?.token !== 'string' || !data.token) {
      throw new ApiError(status, this.#t('httpError', { status }));
    }
    return { email: typeof data.email === 'string' ? data.email : email, token: data.token };
  }

  /**
   * Revokes `token` on the server: signing out.
   * @param {string} token
   */
  async revoke(token) {
    await this.#fetch('/api/v1/sessions/current', {
      method: 'DELETE', headers: { Authorization: `Bearer ${token}` }, credentials: 'omit',
    });
  }

  /**
   * One page of the list, newest first; a search's notes carry a `snippet` around their
   * first match.
   * @param {{ limit: number, cursor: string | null, query: string }} page
   * @returns {Promise<{ notes: Note[], nextCursor: string | null }>}
   */
  async notes({ limit, cursor, query }) {
    const parameters = new URLSearchParams({ limit: String(limit) });
    if (cursor) parameters.set('cursor', cursor);
    if (query) {
      parameters.set('q', query);
      parameters.set('snippet', 'true');
    }
    const { data } = await this.request('GET', `/api/v1/notes?${parameters}`, {});
    return { notes: data.notes, nextCursor: data.nextCursor ?? null };
  }

  /**
   * @param {number} id
   * @returns {Promise<{ note: Note, etag: string | null }>}
   */
  async note(id) {
    const { data, etag } = await this.request('GET', `/api/v1/notes/${id}`, {});
    return { note: data, etag };
  }

  /**
   * @param {Draft} draft
   * @returns {Promise<{ note: Note, etag: string | null }>}
   */
  async create(draft) {
    /** @type {Draft} */
    const body = { content: draft.content };
    if (draft.date) body.date = draft.date;
    const { data, etag } = await this.request('POST', '/api/v1/notes', { body });
    return { note: data, etag };
  }

  /**
   * Replaces note `id` if it is still at version `etag` (412 otherwise).
   * @param {number} id
   * @param {Draft} draft
   * @param {string | null} etag
   * @returns {Promise<{ note: Note, etag: string | null }>}
   */
  async replace(id, draft, etag) {
    const { data, etag: newTag } = await this.request('PUT', `/api/v1/notes/${id}`, {
      body: draft, etag,
    });
    return { note: data, etag: newTag };
  }

  /**
   * Deletes note `id` if it is still at version `etag` (412 otherwise).
   * @param {number} id
   * @param {string | null} etag
   */
  async remove(id, etag) {
    await this.request('DELETE', `/api/v1/notes/${id}`, { etag });
  }

  /**
   * Changes the password; the server signs out every other session of the account.
   * @param {string} current
   * @param {string} next
   */
  async changePassword(current, next) {
    await this.request('POST', '/api/v1/account/password', {
      body: { currentPassword: current, newPassword: next },
    });
  }

  /**
   * The account's live sessions, oldest first.
   * @returns {Promise<SessionInfo[]>}
   */
  async sessions() {
    const { data } = await this.request('GET', '/api/v1/sessions', {});
    return Array.isArray(data?.sessions) ? data.sessions : [];
  }

  /**
   * Signs out one session of the account.
   * @param {string} id
   */
  async revokeSession(id) {
    await this.request('DELETE', `/api/v1/sessions/${encodeURIComponent(id)}`, {});
  }

  /**
   * Signs out every session of the account but this one; resolves to how many.
   * @returns {Promise<number>}
   */
  async revokeOtherSessions() {
    const { data } = await this.request('DELETE', '/api/v1/sessions', {});
    return typeof data?.revoked === 'number' ? data.revoked : 0;
  }
}
