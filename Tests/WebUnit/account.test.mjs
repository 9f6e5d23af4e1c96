import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { Api, ApiError, SESSION_EXPIRED } from '../../Sources/MyNotesService/Web/Assets/api.js';
import { translator } from '../../Sources/MyNotesService/Web/Assets/i18n.js';
import { initialState, reduce } from '../../Sources/MyNotesService/Web/Assets/store.js';

const t = translator('en');

function fakeApi(answer) {
  const requests = [];
  const expired = [];
  const api = new Api({
    fetch: async (path, init) => {
      requests.push({ path, ...init, headers: { ...init.headers } });
      return answer();
    },
    t, acceptLanguage: 'en', token: () => 'tok',
  });
  api.addEventListener(SESSION_EXPIRED, (event) => expired.push(event));
  return { api, requests, expired };
}

const json = (status, body) => new Response(JSON.stringify(body), {
  status, headers: { 'Content-Type': 'application/json' },
});
const session = (id, current = false) => ({
  id, kind: 'session', createdAt: '2026-12-01T00:00:00.000Z',
  lastUsedAt: '2026-12-01T00:00:00.000Z', expiresAt: null, current,
});
const signedIn = { type: 'signedIn', token: 'tok', email: 'ann@example.com' };

describe('the account page in the store', () => {
  test('opens and closes, and signing in or out always shows the notes', () => {
    let state = reduce(reduce(initialState, signedIn), { type: 'page', page: 'account' });
    assert.equal(state.page, 'account');
    assert.equal(reduce(state, { type: 'signedOut' }).page, 'notes');
    assert.equal(reduce(state, signedIn).page, 'notes');
    state = reduce(state, { type: 'page', page: 'notes' });
    assert.equal(state.page, 'notes');
  });

  test('loads sessions, keeps them on a failure, and drops a revoked one', () => {
    let state = reduce(initialState, { type: 'sessionsLoading' });
    assert.equal(state.account.loading, true);
    state = reduce(state, { type: 'sessionsLoaded', sessions: [session('a', true), session('b')] });
    assert.deepEqual(state.account.sessions.map((s) => s.id), ['a', 'b']);
    assert.equal(state.account.loading, false);
    state = reduce(state, { type: 'sessionsFailed', message: 'No such session.' });
    assert.equal(state.account.error, 'No such session.');
    assert.equal(state.account.sessions.length, 2);
    state = reduce(state, { type: 'sessionRevoked', id: 'b' });
    assert.deepEqual(state.account.sessions.map((s) => s.id), ['a']);
    assert.equal(reduce(state, { type: 'signedOut' }).account.sessions.length, 0,
      'nothing of the account stays after signing out');
  });
});

describe('the account requests', () => {
  test('a password change sends both passwords with the token', async () => {
    const { api, requests } = fakeApi(() => new Response(null, { status: 204 }));
    await api.changePassword('old password', 'new password');
    const [request] = requests;
    assert.equal(request.method, 'POST');
    assert.equal(request.path, '/api/v1/account/password');
    assert.equal(request.headers.Authorization, 'Bearer tok');
    assert.deepEqual(JSON.parse(request.body),
      { currentPassword: 'old password', newPassword: 'new password' });
  });

  test('a wrong current password is the server\'s words, and the session stays', async () => {
    const { api, expired } = fakeApi(() => new Response(JSON.stringify({
      status: 403, code: 403, detail: 'The current password is wrong.',
    }), { status: 403, headers: { 'Content-Type': 'application/problem+json' } }));
    const error = await api.changePassword('guess', 'new password').catch((e) => e);
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, 403);
    assert.equal(error.message, 'The current password is wrong.');
    assert.equal(expired.length, 0);
  });

  test('sessions are listed, revoked one by one (its id escaped) or all but this one', async () => {
    const answers = [
      json(200, { sessions: [session('a', true), session('b')] }),
      new Response(null, { status: 204 }),
      json(200, { revoked: 3 }),
    ];
    const { api, requests } = fakeApi(() => answers.shift());
    assert.deepEqual((await api.sessions()).map((s) => s.id), ['a', 'b']);
    await api.revokeSession('b/..');
    assert.equal(await api.revokeOtherSessions(), 3);
    assert.deepEqual(requests.map((r) => `${r.method} ${r.path}`), [
      'GET /api/v1/sessions', 'DELETE /api/v1/sessions/b%2F..', 'DELETE /api/v1/sessions',
    ]);
  });
});
