import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { Api, SESSION_EXPIRED } from '../../Sources/MyNotesService/Web/Assets/api.js';
import {
  ChangeStream, DEFAULT_RETRY_MS, MAX_RETRY_MS, reconnectDelay,
} from '../../Sources/MyNotesService/Web/Assets/feed.js';
import { translator } from '../../Sources/MyNotesService/Web/Assets/i18n.js';

/** Waits, without sleeping, until `condition()` holds; fails after two seconds. */
async function until(condition, what) {
  const deadline = Date.now() + 2000;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Timers that fire only when the test says: the waits are checked, not waited for. */
function fakeClock() {
  const timers = new Map();
  let next = 1;
  return {
    timers,
    setTimeout: (callback, ms) => {
      const handle = next++;
      timers.set(handle, { callback, ms });
      return handle;
    },
    clearTimeout: (handle) => timers.delete(handle),
    random: () => 0,
    /** The delays of the timers waiting now. */
    pending: () => [...timers.values()].map((timer) => timer.ms),
    /** Fires the timers of `ms`. */
    fire(ms) {
      for (const [handle, timer] of timers) {
        if (timer.ms !== ms) continue;
        timers.delete(handle);
        timer.callback();
      }
    },
  };
}

/**
 * A server behind a fake fetch: each request to the stream gets the next answer the test
 * queued — an open stream it writes to, or a refusal — and is recorded.
 */
function fakeServer() {
  const requests = [];
  const answers = [];
  const streams = [];
  const fetch = async (path, init) => {
    requests.push({ path, ...init, headers: { ...init.headers } });
    const answer = answers.shift() ?? { status: 503 };
    if (answer.network) throw new TypeError('Failed to fetch');
    if (answer.status !== 200) {
      return new Response(JSON.stringify({ title: 'no', detail: `refused ${answer.status}` }),
        { status: answer.status, headers: { 'Content-Type': 'application/problem+json' } });
    }
    let controller;
    const body = new ReadableStream({ start(c) { controller = c; } });
    const encoder = new TextEncoder();
    const stream = {
      send: (text) => controller.enqueue(encoder.encode(text)),
      end: () => controller.close(),
      aborted: false,
    };
    init.signal.addEventListener('abort', () => {
      stream.aborted = true;
      try {
        controller.error(new DOMException('aborted', 'AbortError'));
      } catch { /* already closed */ }
    });
    streams.push(stream);
    return new Response(body, {
      status: 200, headers: { 'Content-Type': answer.type ?? 'text/event-stream' },
    });
  };
  return { fetch, requests, answers, streams };
}

/** A ChangeStream over `server`, recording what it tells. */
function follow(server, { silenceMs } = {}) {
  const clock = fakeClock();
  const api = new Api({
    fetch: server.fetch, t: translator('en'), acceptLanguage: 'en', token: () => 'tok',
  });
  const told = { changes: [], opens: [], states: [], expired: 0 };
  api.addEventListener(SESSION_EXPIRED, () => { told.expired += 1; });
  const stream = new ChangeStream({
    api, clock, silenceMs,
    onChange: (change) => told.changes.push(change),
    onOpen: (opened) => told.opens.push(opened),
    onState: (state) => told.states.push(state),
  });
  return { stream, clock, told };
}

const change = (cursor, id, type = 'updated') => `id: ${cursor}\nevent: change\ndata: ${
  JSON.stringify({ cursor, type, id, version: 2, note: { id, content: `n${id}`, date: '2026-11-29' } })
}\n\n`;

describe('the change stream', () => {
  test('connects with the token, hands on each change in order, and keeps the cursor', async () => {
    const server = fakeServer();
    server.answers.push({ status: 200 });
    const { stream, told } = follow(server);
    stream.start();
    await until(() => told.opens.length === 1, 'the connection');
    const [request] = server.requests;
    assert.equal(request.path, '/api/v1/changes/stream');
    assert.equal(request.headers.Authorization, 'Bearer tok');
    assert.equal(request.headers.Accept, 'text/event-stream');
    assert.equal(request.headers['Last-Event-ID'], undefined);
    assert.equal(request.credentials, 'omit');
    assert.deepEqual(told.opens, [{ fresh: true }]);
    server.streams[0].send('retry: 3000\n\n' + change('5', 1) + ': heartbeat\n\n');
    server.streams[0].send(change('6', 2, 'created').slice(0, 20));
    await until(() => told.changes.length === 1, 'the first change');
    assert.equal(stream.cursor, '5');
    server.streams[0].send(change('6', 2, 'created').slice(20));
    await until(() => told.changes.length === 2, 'the second change');
    assert.deepEqual(told.changes.map((c) => [c.cursor, c.type, c.id]),
      [['5', 'updated', 1], ['6', 'created', 2]]);
    assert.equal(stream.cursor, '6');
    assert.deepEqual(told.states, ['connecting', 'open']);
    stream.stop();
    assert.equal(told.states.at(-1), 'off');
    await until(() => server.streams[0].aborted, 'the abort');
  });

  test('a dropped stream comes back after the retry time with Last-Event-ID, and resumes', async () => {
    const server = fakeServer();
    server.answers.push({ status: 200 }, { status: 200 });
    const { stream, clock, told } = follow(server);
    stream.start();
    await until(() => server.streams.length === 1, 'the connection');
    server.streams[0].send('retry: 1500\n\n' + change('8', 1));
    await until(() => told.changes.length === 1, 'the change');
    server.streams[0].end(); // the server restarts
    await until(() => told.states.at(-1) === 'waiting', 'the wait');
    assert.deepEqual(clock.pending().filter((ms) => ms !== 40000), [1500]);
    assert.equal(server.requests.length, 1, 'no attempt before the retry time');
    clock.fire(1500);
    await until(() => server.streams.length === 2, 'the second connection');
    assert.equal(server.requests[1].headers['Last-Event-ID'], '8');
    assert.deepEqual(told.opens, [{ fresh: true }, { fresh: false }]);
    server.streams[1].send(change('9', 3));
    await until(() => told.changes.length === 2, 'the resumed change');
    assert.equal(told.changes[1].cursor, '9');
    stream.stop();
  });

  test('where a stream starts (an id without data) is the cursor a reconnection sends', async () => {
    const server = fakeServer();
    server.answers.push({ status: 200 }, { status: 200 });
    const { stream, clock, told } = follow(server);
    stream.start();
    await until(() => server.streams.length === 1, 'the connection');
    server.streams[0].send('retry: 3000\nid: 41\n\n');
    await until(() => stream.cursor === '41', 'the starting cursor');
    server.streams[0].end();
    await until(() => told.states.at(-1) === 'waiting', 'the wait');
    clock.fire(DEFAULT_RETRY_MS);
    await until(() => server.requests.length === 2, 'the second attempt');
    assert.equal(server.requests[1].headers['Last-Event-ID'], '41');
    assert.deepEqual(told.changes, []);
    stream.stop();
  });

  test('failed attempts wait longer each time, and a connection resets the wait', async () => {
    const server = fakeServer();
    server.answers.push({ network: true }, { status: 502 }, { status: 404 }, { status: 200 });
    const { stream, clock, told } = follow(server);
    stream.start();
    for (const [attempt, ms] of [[1, 6000], [2, 12000], [3, 24000]]) {
      await until(() => clock.pending().includes(ms), `the wait of ${ms} ms`);
      assert.equal(server.requests.length, attempt);
      clock.fire(ms);
    }
    await until(() => server.streams.length === 1, 'the connection');
    server.streams[0].end();
    await until(() => clock.pending().includes(DEFAULT_RETRY_MS), 'the retry time again');
    assert.deepEqual(told.opens, [{ fresh: true }]);
    stream.stop();
  });

  test('the waits: retry time, doubled per failure, at most 30 s, plus up to a fifth', () => {
    assert.equal(reconnectDelay(3000, 0, 0), 3000);
    assert.equal(reconnectDelay(3000, 1, 0), 6000);
    assert.equal(reconnectDelay(3000, 4, 0), MAX_RETRY_MS);
    assert.equal(reconnectDelay(3000, 100, 0), MAX_RETRY_MS);
    assert.equal(reconnectDelay(3000, 0, 0.999), 3599);
    // A server asking for more than the cap is obeyed.
    assert.equal(reconnectDelay(60000, 3, 0), 60000);
  });

  test('an expired cursor (410) starts over from now at once, as a fresh stream', async () => {
    const server = fakeServer();
    server.answers.push({ status: 200 }, { status: 410 }, { status: 200 });
    const { stream, clock, told } = follow(server);
    stream.start();
    await until(() => server.streams.length === 1, 'the connection');
    server.streams[0].send(change('3', 1));
    await until(() => told.changes.length === 1, 'the change');
    server.streams[0].end();
    await until(() => clock.pending().includes(DEFAULT_RETRY_MS), 'the wait');
    clock.fire(DEFAULT_RETRY_MS);
    await until(() => server.streams.length === 2, 'the connection after the 410');
    assert.equal(server.requests[1].headers['Last-Event-ID'], '3');
    assert.equal(server.requests[2].headers['Last-Event-ID'], undefined);
    assert.deepEqual(told.opens, [{ fresh: true }, { fresh: true }]);
    stream.stop();
  });

  test('a refused token (401) ends the session and the stream: no more attempts', async () => {
    const server = fakeServer();
    server.answers.push({ status: 401 });
    const { clock, stream, told } = follow(server);
    stream.start();
    await until(() => told.states.at(-1) === 'off', 'the end');
    assert.equal(told.expired, 1);
    assert.deepEqual(clock.pending(), []);
    assert.equal(server.requests.length, 1);
  });

  test('silence longer than two heartbeats counts as a dead connection', async () => {
    const server = fakeServer();
    server.answers.push({ status: 200 }, { status: 200 });
    const { stream, clock, told } = follow(server, { silenceMs: 777 });
    stream.start();
    await until(() => server.streams.length === 1, 'the connection');
    server.streams[0].send(change('4', 1));
    await until(() => told.changes.length === 1, 'the change');
    assert.deepEqual(clock.pending(), [777], 'one watch, set again by each chunk');
    clock.fire(777);
    await until(() => server.streams[0].aborted && told.states.at(-1) === 'waiting', 'the drop');
    clock.fire(DEFAULT_RETRY_MS);
    await until(() => server.streams.length === 2, 'the new connection');
    assert.equal(server.requests[1].headers['Last-Event-ID'], '4');
    stream.stop();
  });

  test('an answer that is not an event stream is a failed attempt', async () => {
    const server = fakeServer();
    server.answers.push({ status: 200, type: 'text/html' });
    const { stream, clock, told } = follow(server);
    stream.start();
    await until(() => clock.pending().includes(6000), 'the longer wait');
    assert.deepEqual(told.opens, []);
    stream.stop();
  });

  test('a change that is not one is skipped, and the cursor still moves past it', async () => {
    const server = fakeServer();
    server.answers.push({ status: 200 });
    const { stream, told } = follow(server);
    stream.start();
    await until(() => server.streams.length === 1, 'the connection');
    server.streams[0].send('id: 10\nevent: change\ndata: {"broken"\n\n'
      + 'id: 11\nevent: other\ndata: {}\n\n' + change('12', 5));
    await until(() => told.changes.length === 1, 'the good change');
    assert.equal(told.changes[0].cursor, '12');
    assert.equal(stream.cursor, '12');
    stream.stop();
  });

  test('stop() during a wait ends it: no attempt follows', async () => {
    const server = fakeServer();
    server.answers.push({ status: 503 });
    const { stream, clock, told } = follow(server);
    stream.start();
    await until(() => told.states.at(-1) === 'waiting', 'the wait');
    stream.stop();
    assert.deepEqual(clock.pending(), []);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(server.requests.length, 1);
    assert.equal(told.states.at(-1), 'off');
  });
});
