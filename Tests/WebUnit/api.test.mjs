import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
  Api, ApiError, SESSION_EXPIRED, messageOf, statusOf,
} from '../../Sources/MyNotesService/Web/Assets/api.js';
import { translator } from '../../Sources/MyNotesService/Web/Assets/i18n.js';

const t = translator('en');

/**
 * An Api over a fake fetch that records each request and answers with `answer(request)`
 * (a Response, or a thrown error for a network failure).
 */
function fakeApi(answer, { token = 'tok' } = {}) {
  const requests = [];
  const expired = [];
  const api = new Api({
    fetch: async (path, init) => {
      const request = { path, ...init, headers: { ...init.headers } };
      requests.push(request);
      return answer(request);
    },
    t, acceptLanguage: 'zh-CN, zh;q=0.9', token: () => token,
  });
  api.addEventListener(SESSION_EXPIRED, (event) => expired.push(event));
  return { api, requests, expired };
}

const json = (status, body, headers = {}) => new Response(JSON.stringify(body), {
  status, headers: { 'Content-Type': 'application/json', ...headers },
});
const problem = (status, body, headers = {}) => new Response(JSON.stringify(body), {
  status, headers: { 'Content-Type': 'application/problem+json', ...headers },
});

/** The ApiError `promise` rejects with. */
async function refusal(promise) {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ApiError, `not an ApiError: ${error}`);
    return error;
  }
  assert.fail('the request succeeded');
}

describe('requests', () => {
  test('carry the language and the token, and no cookie; the answer gives data and ETag', async () => {
    const { api, requests } = fakeApi(() => json(200, { id: 7, content: 'milk', date: '2026-11-29' },
      { ETag: '"v3"' }));
    const { note, etag } = await api.note(7);
    assert.deepEqual(note, { id: 7, content: 'milk', date: '2026-11-29' });
    assert.equal(etag, '"v3"');
    const [request] = requests;
    assert.equal(request.path, '/api/v1/notes/7');
    assert.equal(request.method, 'GET');
    assert.equal(request.headers.Authorization, 'Bearer tok');
    assert.equal(request.headers['Accept-Language'], 'zh-CN, zh;q=0.9');
    assert.equal(request.headers['Content-Type'], undefined);
    assert.equal(request.headers['If-Match'], undefined);
    assert.equal(request.credentials, 'omit');
    assert.equal(request.body, undefined);
  });

  test('a replace sends JSON with If-Match; a create leaves out a missing date', async () => {
    const { api, requests } = fakeApi(() => json(200, { id: 7, content: 'x', date: 'd' }));
    await api.replace(7, { content: 'x', date: '2026-11-29 10:00:00' }, '"v1"');
    await api.create({ content: 'y', date: undefined });
    assert.equal(requests[0].method, 'PUT');
    assert.equal(requests[0].headers['If-Match'], '"v1"');
    assert.equal(requests[0].headers['Content-Type'], 'application/json');
    assert.deepEqual(JSON.parse(requests[0].body), { content: 'x', date: '2026-11-29 10:00:00' });
    assert.equal(requests[1].method, 'POST');
    assert.deepEqual(JSON.parse(requests[1].body), { content: 'y' });
  });

  test('a page of the list names its limit, cursor and query', async () => {
    const { api, requests } = fakeApi(() => json(200, { notes: [] }));
    const page = await api.notes({ limit: 30, cursor: 'abc', query: '牛奶 & eggs' });
    assert.deepEqual(page, { notes: [], nextCursor: null });
    const url = new URL(requests[0].path, 'http://x');
    assert.equal(url.pathname, '/api/v1/notes');
    assert.equal(url.searchParams.get('limit'), '30');
    assert.equal(url.searchParams.get('cursor'), 'abc');
    assert.equal(url.searchParams.get('q'), '牛奶 & eggs');
    await api.notes({ limit: 30, cursor: null, query: '' });
    assert.equal(requests[1].path, '/api/v1/notes?limit=30');
  });

  test('signing in sends no token, and takes the server’s spelling of the email', async () => {
    const { api, requests } = fakeApi(() => json(200, { email: 'ann@example.com', token: 'new' }));
    const session = await api.authenticate('signin', 'Ann@Example.com', 'pw');
    assert.deepEqual(session, { email: 'ann@example.com', token: 'new' });
    assert.equal(requests[0].path, '/api/v1/sessions');
    assert.equal(requests[0].headers.Authorization, undefined);
    await api.authenticate('signup', 'b@example.com', 'pw');
    assert.equal(requests[1].path, '/api/v1/accounts');
  });
});

describe('errors', () => {
  test('a sign-in answered without a token is refused, not a session', async () => {
    for (const body of [{}, { token: '' }, { token: 7 }, null]) {
      const { api } = fakeApi(() => json(200, body));
      const error = await refusal(api.authenticate('signin', 'a@example.com', 'pw'));
      assert.equal(error.message, 'The server answered 200.');
    }
  });

  test('no answer at all is status 0 and the network message', async () => {
    const { api } = fakeApi(() => { throw new TypeError('Failed to fetch'); });
    const error = await refusal(api.note(1));
    assert.equal(error.status, 0);
    assert.equal(error.message, 'Cannot reach the server. Check your connection and try again.');
    assert.equal(statusOf(error), 0);
  });

  test('the server’s own detail is the message, and the problem is kept', async () => {
    const body = { title: 'Invalid note', detail: '备忘录不能为空。', status: 422 };
    const { api } = fakeApi(() => problem(422, body));
    const error = await refusal(api.create({ content: '' }));
    assert.equal(error.status, 422);
    assert.equal(error.message, '备忘录不能为空。');
    assert.deepEqual(error.problem, body);
    assert.equal(messageOf(error, t), '备忘录不能为空。');
  });

  test('without a detail, the title; without either, the status in words', async () => {
    const { api } = fakeApi((request) => (request.path.endsWith('/1')
      ? problem(404, { title: 'Not found' })
      : new Response('boom', { status: 500, headers: { 'Content-Type': 'text/plain' } })));
    assert.equal((await refusal(api.note(1))).message, 'Not found');
    const error = await refusal(api.note(2));
    assert.equal(error.status, 500);
    assert.equal(error.message, 'The server answered 500.');
  });

  test('a JSON body that does not parse is no problem document', async () => {
    const { api } = fakeApi(() => new Response('{"detail":', {
      status: 502, headers: { 'Content-Type': 'application/json' } }));
    const error = await refusal(api.note(1));
    assert.equal(error.message, 'The server answered 502.');
    assert.equal(error.problem, null);
  });

  test('a 429 says when to try again', async () => {
    const { api } = fakeApi(() => problem(429, { detail: 'Too many attempts.' }, { 'Retry-After': '7' }));
    const error = await refusal(api.authenticate('signin', 'a@example.com', 'pw'));
    assert.equal(error.message, 'Too many attempts. Try again in 7 seconds.');
  });

  test('412 and 404 keep their status for the app to act on', async () => {
    for (const status of [412, 404]) {
      const { api } = fakeApi(() => problem(status, { detail: 'x' }));
      assert.equal(statusOf(await refusal(api.replace(1, { content: 'x' }, '"v1"'))), status);
    }
  });

  test('anything not an ApiError reads as the network message', () => {
    assert.equal(messageOf(new Error('bug'), t), t('networkError'));
    assert.equal(statusOf(new Error('bug')), 0);
  });
});

describe('an expired session', () => {
  test('a 401 to a signed-in request fires the event once, then rejects', async () => {
    const { api, expired } = fakeApi(() => problem(401, { detail: 'Sign in again.' }));
    const error = await refusal(api.notes({ limit: 30, cursor: null, query: '' }));
    assert.equal(error.status, 401);
    assert.equal(expired.length, 1);
  });

  test('a wrong password (no token sent) is no expired session', async () => {
    const { api, expired } = fakeApi(() => problem(401, { detail: 'Wrong email or password.' }));
    const error = await refusal(api.authenticate('signin', 'a@example.com', 'nope'));
    assert.equal(error.message, 'Wrong email or password.');
    assert.equal(expired.length, 0);
  });

  test('nor is a 401 when signed out', async () => {
    const { api, expired } = fakeApi(() => problem(401, {}), { token: null });
    await refusal(api.note(1));
    assert.equal(expired.length, 0);
  });
});
