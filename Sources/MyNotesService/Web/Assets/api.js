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
    const headers = { Accept: 'application/json', 'Accept-Language': this.#acceptLanguage };
    const token = anonymous ? null : this.#token();
    if (token) headers.Authorization = `Bearer ${token}`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (etag) headers['If-Match'] = etag;
    let response;
    try {
      response = await this.#fetch(path, {
        method, headers, body: body === undefined ? undefined : JSON.stringify(body),
        cache: 'no-store', credentials: 'omit', redirect: 'error',
      });
    } catch {
      throw new ApiError(0, this.#t('networkError'));
    }
    let data = null;
    if (/json/.test(response.headers.get('Content-Type') ?? '')) {
      try {
        data = await response.json();
      } catch {
        data = null;
      }
    }
    if (!response.ok) {
      const message = refusalMessage(
        response.status, data, response.headers.get('Retry-After'), this.#t);
      if (response.status === 401 && token) this.dispatchEvent(new Event(SESSION_EXPIRED));
      throw new ApiError(response.status, message, data);
    }
    return { status: response.status, data, etag: response.headers.get('ETag') };
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
