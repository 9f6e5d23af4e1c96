// @ts-check
// The app's one state, changed only by dispatching actions to the store, which computes
// the next state with `reduce` (pure: it neither mutates nor touches the page) and tells
// the views, which re-render from it. The unit tests (Tests/WebUnit) drive `reduce`
// directly.

import { applyChange } from './changes.js';
import { toInputValue } from './dates.js';

/**
 * @typedef {{ id: number, content: string, date: string, snippet?: string }} Note `snippet`:
 * in a search's answer, the piece of the note around its first match
 */
/** @typedef {{ content: string, date?: string }} Draft What the user asked to save. */
/** @typedef {'signin' | 'signup'} AuthMode */
/** @typedef {'notes' | 'account'} Page */
/** @typedef {import('./changes.js').Change} Change */
/**
 * The change stream (live.js): not signed in, connecting, open, or waiting to reconnect.
 * @typedef {'off' | 'connecting' | 'open' | 'waiting'} LiveState
 */

/**
 * One of the account's tokens as `GET /api/v1/sessions` lists it (never the token).
 * @typedef {{
 *   id: string, kind: 'session' | 'accessKey', createdAt: string, lastUsedAt: string,
 *   expiresAt: string | null, current: boolean
 * }} SessionInfo
 */

/**
 * The account page's list of sessions, as loaded last.
 * @typedef {{ sessions: SessionInfo[], loading: boolean, error: string }} Account
 */

/**
 * The note in the detail pane, as the server has it (the editor's fields hold the user's
 * draft of it). `id` is null for a note not saved yet; `etag` is null until the server's
 * version has been fetched, and `loading` is true meanwhile. `dateInput` is `date` as the
 * date field shows it. `revision` changes whenever a version is put into the editor: the
 * editor view then copies it into the fields, and leaves them alone otherwise.
 * @typedef {{
 *   id: number | null, etag: string | null, content: string, date: string | null,
 *   dateInput: string, loading: boolean, revision: number
 * }} Current
 */

/**
 * A save refused as stale (412) or aimed at a deleted note, or (`live`) a note being
 * edited that the change stream said was changed or deleted elsewhere: the user's draft
 * beside the version saved now (`theirs`, null when the note is gone).
 * @typedef {{
 *   id: number, mine: Draft, theirs: Note | null, theirsEtag: string | null, error: string,
 *   live: boolean
 * }} Conflict
 */

/**
 * The list as loaded so far over the API's cursor. `generation` changes with every
 * reset, so an answer to an older request is recognised and dropped.
 * @typedef {{
 *   notes: Note[], cursor: string | null, hasMore: boolean, loading: boolean,
 *   error: string, query: string, generation: number
 * }} List
 */

/**
 * @typedef {{
 *   token: string | null, email: string, authMode: AuthMode, authError: string,
 *   busy: boolean, alert: string, notice: { text: string }, list: List,
 *   current: Current | null, conflict: Conflict | null, editorError: string,
 *   revisions: number, page: Page, account: Account, live: LiveState
 * }} State
 */

/**
 * @typedef {{ type: 'authMode', mode: AuthMode }
 *   | { type: 'authFailed', message: string }
 *   | { type: 'signedIn', token: string, email: string }
 *   | { type: 'signedOut' }
 *   | { type: 'busy', busy: boolean }
 *   | { type: 'alert', message: string }
 *   | { type: 'notice', message: string }
 *   | { type: 'listReset', query?: string }
 *   | { type: 'listLoading' }
 *   | { type: 'listLoaded', generation: number, notes: Note[], cursor: string | null }
 *   | { type: 'listFailed', generation: number, message: string }
 *   | { type: 'noteChanged', note: Note }
 *   | { type: 'noteRemoved', id: number }
 *   | { type: 'noteOpened', note: Note, etag: string | null, loading?: boolean }
 *   | { type: 'noteLoaded' }
 *   | { type: 'newNote', date: string }
 *   | { type: 'rebased', id: number, etag: string | null, date: string }
 *   | { type: 'copying' }
 *   | { type: 'editorError', message: string }
 *   | { type: 'detailClosed' }
 *   | {
 *       type: 'conflict', id: number, mine: Draft, theirs: Note | null,
 *       theirsEtag: string | null, live?: boolean
 *     }
 *   | { type: 'conflictFailed', message: string }
 *   | { type: 'page', page: Page }
 *   | { type: 'sessionsLoading' }
 *   | { type: 'sessionsLoaded', sessions: SessionInfo[] }
 *   | { type: 'sessionsFailed', message: string }
 *   | { type: 'sessionRevoked', id: string }
 *   | { type: 'remoteChange', change: Change }
 *   | { type: 'liveState', live: LiveState }
 * } Action
 */

/** @returns {List} */
function emptyList(generation = 0) {
  return {
    notes: [], cursor: null, hasMore: true, loading: false, error: '', query: '', generation,
  };
}

/** @returns {Account} */
function emptyAccount() {
  return { sessions: [], loading: false, error: '' };
}

/** Signed out, nothing loaded. @type {State} */
export const initialState = Object.freeze({
  token: null,
  email: '',
  authMode: 'signin',
  authError: '',
  busy: false,
  alert: '',
  // A new object for every notice, even one saying the same again, so it is announced.
  notice: { text: '' },
  list: emptyList(),
  current: null,
  conflict: null,
  editorError: '',
  revisions: 0,
  page: 'notes',
  account: emptyAccount(),
  live: 'off',
});

/**
 * A note put into the editor, as a new revision.
 * @param {State} state
 * @param {{ id: number | null, content: string, date: string | null }} note
 * @param {string | null} etag
 * @param {boolean} loading
 * @returns {State}
 */
function withCurrent(state, note, etag, loading) {
  const revisions = state.revisions + 1;
  const current = {
    id: note.id, etag, content: note.content, date: note.date,
    dateInput: toInputValue(note.date), loading, revision: revisions,
  };
  return { ...state, current, conflict: null, revisions };
}

/**
 * The state after `action`. Never mutates `state`; answers that no longer apply (a page
 * of an older list) leave it as it is.
 * @param {State} state
 * @param {Action} action
 * @returns {State}
 */
export function reduce(state, action) {
  const list = state.list;
  switch (action.type) {
    case 'authMode':
      return { ...state, authMode: action.mode, authError: '' };
    case 'authFailed':
      return { ...state, authError: action.message };
    case 'signedIn':
      return {
        ...state, token: action.token, email: action.email, alert: '', authError: '',
        list: emptyList(list.generation + 1), current: null, conflict: null, editorError: '',
        page: 'notes', account: emptyAccount(),
      };
    case 'signedOut':
      // Nothing of the user's stays: no token, no notes, no drafts.
      return {
        ...initialState, list: emptyList(list.generation + 1), revisions: state.revisions,
        notice: state.notice, alert: state.alert, live: state.live,
      };
    case 'busy':
      return { ...state, busy: action.busy };
    case 'alert':
      return { ...state, alert: action.message };
    case 'notice':
      return { ...state, notice: { text: action.message } };
    case 'listReset':
      return {
        ...state,
        list: { ...emptyList(list.generation + 1), query: action.query ?? list.query },
      };
    case 'listLoading':
      return { ...state, list: { ...list, loading: true, error: '' } };
    case 'listLoaded': {
      if (action.generation !== list.generation) return state;
      // A note that moved between pages while the user scrolled is listed once.
      const known = new Set(list.notes.map((note) => note.id));
      const fresh = action.notes.filter((note) => !known.has(note.id));
      return {
        ...state,
        list: {
          ...list, notes: [...list.notes, ...fresh], cursor: action.cursor,
          hasMore: Boolean(action.cursor), loading: false,
        },
      };
    }
    case 'listFailed':
      if (action.generation !== list.generation) return state;
      return { ...state, list: { ...list, loading: false, error: action.message } };
    case 'noteChanged': {
      const index = list.notes.findIndex((note) => note.id === action.note.id);
      if (index < 0) return state;
      const notes = list.notes.slice();
      notes[index] = action.note;
      return { ...state, list: { ...list, notes } };
    }
    case 'noteRemoved':
      return {
        ...state,
        list: { ...list, notes: list.notes.filter((note) => note.id !== action.id) },
      };
    case 'noteOpened':
      return withCurrent(state, action.note, action.etag, action.loading ?? false);
    case 'noteLoaded':
      if (!state.current) return state;
      return { ...state, current: { ...state.current, loading: false } };
    case 'newNote':
      return withCurrent(state, { id: null, content: '', date: action.date }, null, false);
    case 'rebased': {
      // "Keep my version": the user's draft now replaces exactly the version just shown.
      const current = state.current ?? blankCurrent(state.revisions);
      return {
        ...state, current: { ...current, id: action.id, etag: action.etag, date: action.date },
      };
    }
    case 'copying':
      // "Save mine as a new note": the draft goes out as a note of its own.
      return { ...state, current: blankCurrent(state.current?.revision ?? state.revisions) };
    case 'editorError':
      return { ...state, editorError: action.message };
    case 'detailClosed':
      return { ...state, current: null, conflict: null, editorError: '' };
    case 'conflict':
      return {
        ...state,
        conflict: {
          id: action.id, mine: action.mine, theirs: action.theirs,
          theirsEtag: action.theirsEtag, error: '', live: action.live ?? false,
        },
      };
    case 'conflictFailed':
      if (!state.conflict) return state;
      return { ...state, conflict: { ...state.conflict, error: action.message } };
    case 'page':
      return { ...state, page: action.page };
    case 'sessionsLoading':
      return { ...state, account: { ...state.account, loading: true, error: '' } };
    case 'sessionsLoaded':
      return { ...state, account: { sessions: action.sessions, loading: false, error: '' } };
    case 'sessionsFailed':
      return { ...state, account: { ...state.account, loading: false, error: action.message } };
    case 'remoteChange': {
      const next = applyChange(list, action.change);
      return next === list ? state : { ...state, list: next };
    }
    case 'liveState':
      return { ...state, live: action.live };
    case 'sessionRevoked':
      return {
        ...state,
        account: {
          ...state.account,
          sessions: state.account.sessions.filter((session) => session.id !== action.id),
        },
      };
  }
}

/**
 * A note not saved yet, keeping the editor's revision so its fields stay as they are.
 * @param {number} revision
 * @returns {Current}
 */
function blankCurrent(revision) {
  return {
    id: null, etag: null, content: '', date: null, dateInput: '', loading: false, revision,
  };
}

/**
 * What the detail pane shows.
 * @param {State} state
 * @returns {'empty' | 'editor' | 'conflict'}
 */
export function detailOf(state) {
  if (state.conflict) return 'conflict';
  return state.current ? 'editor' : 'empty';
}

/**
 * Whether the editor's fields differ from the note they were filled with.
 * @param {State} state
 * @param {{ content: string, dateInput: string }} fields
 */
export function isDirty(state, fields) {
  const current = state.current;
  if (!current || detailOf(state) !== 'editor') return false;
  return fields.content !== current.content || fields.dateInput !== current.dateInput;
}

/**
 * @template S, A
 * @typedef {{
 *   getState: () => S,
 *   dispatch: (action: A) => void,
 *   subscribe: (listener: (state: S, previous: S) => void) => () => void
 * }} Store
 */

/**
 * A store holding `initial`, changed by `reducer`. Listeners hear of every change, in
 * the order they subscribed, and must not dispatch themselves (that would show views a
 * state their predecessors never saw): such a dispatch throws.
 * @template S, A
 * @param {(state: S, action: A) => S} reducer
 * @param {S} initial
 * @returns {Store<S, A>}
 */
export function createStore(reducer, initial) {
  let state = initial;
  let notifying = false;
  /** @type {Set<(state: S, previous: S) => void>} */
  const listeners = new Set();
  return {
    getState: () => state,
    dispatch(action) {
      if (notifying) throw new Error('a store listener dispatched an action');
      const previous = state;
      state = reducer(state, action);
      if (state === previous) return;
      notifying = true;
      try {
        for (const listener of listeners) listener(state, previous);
      } finally {
        notifying = false;
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
