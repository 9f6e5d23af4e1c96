// @ts-check
// Live changes: while signed in, the change stream (feed.js) tells this tab of every
// change to the account's notes — made in another tab, on another device, by the CLI or
// by an old app over the legacy protocol — and the page follows without a reload: the
// list gains, changes or loses the note, and the status line says so. The note open in
// the editor follows too: unchanged by the user, it shows the new version; with unsaved
// edits, the two versions are offered side by side (conflict.js) before any save, and a
// deletion elsewhere is said in words.

import { etagOf, versionOf } from './changes.js';
import { byId, setText } from './dom.js';
import { ChangeStream } from './feed.js';
import { preview } from './text.js';

/** @typedef {import('./store.js').State} State */
/** @typedef {import('./store.js').Note} Note */
/** @typedef {import('./changes.js').Change} Change */
/** @typedef {import('./list.js').AppStore} AppStore */
/** @typedef {ReturnType<typeof import('./list.js').createList>} List */
/** @typedef {ReturnType<typeof import('./editor.js').createEditor>} Editor */
/** @typedef {ReturnType<typeof import('./conflict.js').createConflict>} Conflict */
/** @typedef {import('./api.js').Api} Api */
/** @typedef {import('./i18n.js').Translate} Translate */

/** Changes that come together (a catch-up after reconnecting) are announced as one. */
const ANNOUNCE_DELAY_MS = 300;
/** The list is loaded this long after signing in at the latest, stream or not. */
const FIRST_LOAD_WAIT_MS = 2000;

/**
 * @param {{
 *   store: AppStore, api: Api, t: Translate, list: List, editor: Editor,
 *   conflict: Conflict, announce: (message: string) => void
 * }} context
 */
export function createLive({ store, api, t, list, editor, conflict, announce }) {
  const ui = { status: byId('live-status', HTMLElement) };
  /** Changes held while a save or an open is in flight (see `receive`). */
  /** @type {Change[]} */
  let held = [];
  /** Whether the list has yet to be loaded since signing in. */
  let firstLoad = false;
  let firstLoadTimer = 0;
  /** @type {string[]} */
  let news = [];
  let newsTimer = 0;
  let offline = false;

  const stream = new ChangeStream({
    api,
    onState: (live) => {
      store.dispatch({ type: 'liveState', live });
      // Without a stream the list is loaded all the same, only not live.
      if (live === 'waiting') loadFirst();
    },
    onOpen: ({ fresh }) => {
      if (!fresh) return; // resumed from the cursor: the server sends what was missed
      // From now on every change comes over the stream; what came before is in a list
      // loaded after this point — the first one, or all of it again (after a 410, or a
      // reconnection before any cursor was known).
      if (firstLoad) loadFirst();
      else list.reset();
    },
    onChange: receive,
  });

  /** Loads the list the first time after signing in, once. */
  function loadFirst() {
    if (!firstLoad) return;
    firstLoad = false;
    clearTimeout(firstLoadTimer);
    list.reset();
  }

  /**
   * Starts following the account's changes after signing in; the list is loaded as soon
   * as the stream is up, so no change falls between the two.
   */
  function start() {
    firstLoad = true;
    // Says "Loading…" meanwhile, as the list does.
    store.dispatch({ type: 'listLoading' });
    firstLoadTimer = setTimeout(loadFirst, FIRST_LOAD_WAIT_MS);
    stream.start();
  }

  /** Stops following (signing out). */
  function stop() {
    firstLoad = false;
    clearTimeout(firstLoadTimer);
    clearTimeout(newsTimer);
    held = [];
    news = [];
    stream.stop();
  }

  /**
   * While a save or delete is in flight, the open note is being fetched or a page of the
   * list is loading, a change may be this tab's own write, or be older or newer than what
   * the answer will bring: it waits for the answer, and is then compared with what the tab
   * knows (a page read before the change would otherwise hide it).
   * @param {State} state
   */
  const settling = (state) => state.busy || state.list.loading
    || Boolean(state.current?.loading);

  /** @param {Change} change */
  function receive(change) {
    if (settling(store.getState()) || held.length > 0) {
      held.push(change);
      return;
    }
    apply(change);
  }

  /**
   * What `change` does to the page.
   * @param {Change} change
   */
  function apply(change) {
    const before = store.getState();
    const followed = followOpenNote(before, change);
    const listed = store.getState().list.notes.find((note) => note.id === change.id) ?? null;
    const notes = store.getState().list.notes;
    store.dispatch({ type: 'remoteChange', change });
    if (!followed && store.getState().list.notes !== notes) tell(change, listed);
  }

  /**
   * The note open in the editor, or in the choice between versions, follows `change`.
   * Returns whether `change` was about it.
   * @param {State} state
   * @param {Change} change
   */
  function followOpenNote(state, change) {
    const open = state.conflict ?? state.current;
    if (!open || open.id !== change.id) return false;
    const theirs = change.note;
    const theirsEtag = theirs ? etagOf(change.id, change.version) : null;
    const shown = state.conflict;
    if (shown) {
      // Already choosing: the saved side shows what is saved now.
      const known = versionOf(shown.theirsEtag);
      if (!theirs && !shown.theirs) return true;
      if (theirs && known !== null && change.version <= known) return true;
      conflict.present({
        id: change.id, mine: shown.mine, theirs, theirsEtag, live: true, focus: false,
      });
      announce(t(theirs ? 'liveConflictTitle' : 'liveConflictGoneTitle'));
      return true;
    }
    const current = /** @type {NonNullable<State['current']>} */ (state.current);
    const known = versionOf(current.etag);
    // This tab's own write coming back, or an older version than the one shown.
    if (theirs && known !== null && change.version <= known) return true;
    const focused = editor.hasFocus();
    const mine = editor.draft();
    if (editor.dirty() && mine) {
      // The focus moves to the choice's heading, which is then read; else it is announced.
      conflict.present({ id: change.id, mine, theirs, theirsEtag, live: true, focus: focused });
      if (!focused) announce(t(theirs ? 'liveConflictTitle' : 'liveConflictGoneTitle'));
    } else if (theirs) {
      store.dispatch({ type: 'noteOpened', note: theirs, etag: theirsEtag });
      announce(t('liveOpenChanged'));
    } else {
      editor.removed(change.id, { focus: focused });
      store.dispatch({ type: 'alert', message: t('liveOpenDeleted') });
    }
    return true;
  }

  /**
   * Says what changed in the list; several changes at once are said as their number.
   * @param {Change} change
   * @param {Note | null} listed the note as listed before
   */
  function tell(change, listed) {
    const text = preview(change.note?.content ?? listed?.content ?? '');
    const key = change.type === 'created' ? 'liveAdded'
      : change.type === 'updated' ? 'liveChanged' : 'liveDeleted';
    news.push(t(key, { preview: text }));
    clearTimeout(newsTimer);
    newsTimer = setTimeout(() => {
      announce(news.length === 1 ? news[0] : t('liveMany', { n: news.length }));
      news = [];
    }, ANNOUNCE_DELAY_MS);
  }

  /** Applies the changes held while the tab was settling, in order. */
  function release() {
    while (held.length > 0 && !settling(store.getState())) {
      apply(/** @type {Change} */ (held.shift()));
    }
  }

  /**
   * @param {State} state
   * @param {State} [previous]
   */
  function render(state, previous) {
    if (held.length > 0 && !settling(state)) {
      // A listener must not dispatch: the held changes go right after it.
      queueMicrotask(release);
    }
    if (previous && state.live === previous.live) return;
    // Hidden while connected; shown from a failed attempt until connected again.
    offline = state.live === 'waiting' || (state.live === 'connecting' && offline);
    ui.status.dataset.state = state.live;
    ui.status.hidden = !offline;
    setText(ui.status, offline ? t('liveWaiting') : '');
  }

  store.subscribe(render);
  render(store.getState());
  window.addEventListener('online', () => stream.reconnectNow());

  return { start, stop };
}
