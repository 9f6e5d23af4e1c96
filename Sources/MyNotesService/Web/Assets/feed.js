// @ts-check
// The change stream's connection (`GET /api/v1/changes/stream`, Server-Sent Events read
// with fetch(): EventSource cannot send the Authorization header, and the token stays in
// memory). It hands each change on in order, keeps the cursor of the last one, and when
// the connection drops — a network blip, a server restart — it connects again with
// `Last-Event-ID`, so the server sends what was missed, no more, no less. Between attempts
// it waits the server's `retry:` time, doubling after each attempt that fails. A cursor
// the server no longer knows (410) starts over from now, and says so, so the app reloads
// the list in full. No page access: the unit tests drive it over a fake fetch.

import { statusOf } from './api.js';
import { parseChange } from './changes.js';
import { SseParser } from './sse.js';

/** @typedef {import('./api.js').Api} Api */
/** @typedef {import('./changes.js').Change} Change */
/** @typedef {import('./store.js').LiveState} LiveState */

/**
 * Timers and chance, so tests can run the waits fast.
 * @typedef {{
 *   setTimeout: (callback: () => void, ms: number) => unknown,
 *   clearTimeout: (handle: unknown) => void,
 *   random: () => number
 * }} Clock
 */

/** Until the server says otherwise with `retry:`. */
export const DEFAULT_RETRY_MS = 3000;
/** The longest wait between attempts. */
export const MAX_RETRY_MS = 30000;
/** Silence this long (two heartbeats missed) means a dead connection. */
export const SILENCE_MS = 40000;

/** @type {Clock} */
const realClock = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(/** @type {number} */ (handle)),
  random: () => Math.random(),
};

/**
 * How long to wait before the next attempt: the server's `retry` time after a connection
 * that worked, doubling with each attempt that failed since, up to MAX_RETRY_MS (or
 * `retry` if that is longer); plus up to a fifth at random, so the tabs of a restarted
 * server do not all come back in the same millisecond.
 * @param {number} retry
 * @param {number} failures attempts that failed in a row
 * @param {number} random in [0, 1)
 */
export function reconnectDelay(retry, failures, random) {
  const base = Math.min(retry * 2 ** Math.min(failures, 16), Math.max(retry, MAX_RETRY_MS));
  return Math.round(base * (1 + random / 5));
}

export class ChangeStream {
  /** @type {Api} */
  #api;
  /** @type {(change: Change) => void} */
  #onChange;
  /** @type {(opened: { fresh: boolean }) => void} */
  #onOpen;
  /** @type {(state: LiveState) => void} */
  #onState;
  /** @type {Clock} */
  #clock;
  #silenceMs;
  /** @type {string | null} */
  #cursor = null;
  #retry = DEFAULT_RETRY_MS;
  #failures = 0;
  /** Which start() the running loop belongs to; stop() moves it on, ending the loop. */
  #run = 0;
  #active = false;
  /** @type {AbortController | null} */
  #controller = null;
  /** @type {(() => void) | null} */
  #wake = null;

  /**
   * @param {{
   *   api: Api, onChange: (change: Change) => void,
   *   onOpen: (opened: { fresh: boolean }) => void, onState: (state: LiveState) => void,
   *   clock?: Clock, silenceMs?: number
   * }} options `onOpen` is told when a connection is up; `fresh` when it started without
   *   a cursor (first connection, or after a 410), so the changes before it are unknown
   */
  constructor({ api, onChange, onOpen, onState, clock = realClock, silenceMs = SILENCE_MS }) {
    this.#api = api;
    this.#onChange = onChange;
    this.#onOpen = onOpen;
    this.#onState = onState;
    this.#clock = clock;
    this.#silenceMs = silenceMs;
  }

  /** Where the stream stands: the cursor of the last change received; null before one. */
  get cursor() {
    return this.#cursor;
  }

  /** Connects, from now; and keeps connected until stop(). */
  start() {
    if (this.#active) return;
    this.#active = true;
    this.#cursor = null;
    this.#retry = DEFAULT_RETRY_MS;
    this.#failures = 0;
    this.#loop(++this.#run);
  }

  /** Closes the connection, and no more attempts. */
  stop() {
    if (!this.#active) return;
    this.#active = false;
    this.#run += 1;
    this.#controller?.abort();
    this.#wake?.();
    this.#onState('off');
  }

  /** Ends a wait between attempts early (the browser is back online). */
  reconnectNow() {
    this.#failures = 0;
    this.#wake?.();
  }

  /** @param {number} run */
  async #loop(run) {
    while (run === this.#run) {
      this.#onState('connecting');
      const outcome = await this.#connect(run);
      if (run !== this.#run) return;
      if (outcome === 'expired') {
        // The server has forgotten changes since the cursor: start from now, and the
        // app reloads in full (onOpen says `fresh`).
        this.#cursor = null;
        continue;
      }
      if (outcome === 'unauthorized') {
        // The Api has fired session-expired; the app signs out, which stops this.
        this.stop();
        return;
      }
      this.#onState('waiting');
      await this.#sleep(reconnectDelay(this.#retry, this.#failures, this.#clock.random()));
    }
  }

  /**
   * One connection, until it ends.
   * @param {number} run
   * @returns {Promise<'expired' | 'unauthorized' | 'failed' | 'ended'>}
   */
  async #connect(run) {
    const controller = new AbortController();
    this.#controller = controller;
    const fresh = this.#cursor === null;
    let response;
    try {
      response = await this.#api.changeStream(this.#cursor, controller.signal);
    } catch (error) {
      const status = statusOf(error);
      if (status === 410) return 'expired';
      if (status === 401) return 'unauthorized';
      this.#failures += 1;
      return 'failed';
    }
    if (run !== this.#run) {
      controller.abort();
      return 'ended';
    }
    this.#failures = 0;
    this.#onState('open');
    this.#onOpen({ fresh });
    await this.#read(response, controller, run);
    return 'ended';
  }

  /**
   * Reads the events of one connection, handing on each change.
   * @param {Response} response
   * @param {AbortController} controller
   * @param {number} run
   */
  async #read(response, controller, run) {
    const parser = new SseParser(this.#cursor ?? '');
    const decoder = new TextDecoder();
    const body = /** @type {ReadableStream<Uint8Array>} */ (response.body);
    const reader = body.getReader();
    /** @type {unknown} */
    let silence = null;
    const watch = () => {
      this.#clock.clearTimeout(silence);
      silence = this.#clock.setTimeout(() => controller.abort(), this.#silenceMs);
    };
    try {
      watch();
      for (;;) {
        const { done, value } = await reader.read();
        if (done || run !== this.#run) return;
        watch();
        const events = parser.feed(decoder.decode(value, { stream: true }));
        if (parser.retry !== null) this.#retry = Math.max(parser.retry, 100);
        for (const event of events) {
          if (run !== this.#run) return;
          const change = event.type === 'change' ? parseChange(event.data) : null;
          if (change) this.#onChange(change);
          this.#cursor = event.id || this.#cursor;
        }
        // A block with an id and no data moves the cursor too: where a stream starts.
        if (parser.lastEventId) this.#cursor = parser.lastEventId;
      }
    } catch {
      // Dropped, silent too long, or stopped: the loop decides what comes next.
    } finally {
      this.#clock.clearTimeout(silence);
      reader.cancel().catch(() => {});
    }
  }

  /** @param {number} ms */
  #sleep(ms) {
    return new Promise((resolve) => {
      const done = () => {
        this.#clock.clearTimeout(handle);
        this.#wake = null;
        resolve(undefined);
      };
      const handle = this.#clock.setTimeout(done, ms);
      this.#wake = done;
    });
  }
}
