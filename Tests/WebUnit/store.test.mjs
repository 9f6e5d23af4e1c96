import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
  createStore, detailOf, initialState, isDirty, reduce,
} from '../../Sources/MyNotesService/Web/Assets/store.js';

/** Freezes a state and everything in it, so a reducer that mutates throws. */
function deepFreeze(value) {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** The state after `actions`, each step checked not to mutate the one before. */
function after(...actions) {
  return actions.reduce((state, action) => reduce(deepFreeze(state), deepFreeze(action)),
    initialState);
}

const note = (id, content = `note ${id}`, date = '2026-11-29 18:30:00') => ({ id, content, date });
const signedIn = { type: 'signedIn', token: 'tok', email: 'ann@example.com' };

describe('signing in and out', () => {
  test('signing in starts an empty list of a new generation and clears the alert', () => {
    const state = after({ type: 'alert', message: 'Your session has ended.' }, signedIn);
    assert.equal(state.token, 'tok');
    assert.equal(state.email, 'ann@example.com');
    assert.equal(state.alert, '');
    assert.deepEqual(state.list.notes, []);
    assert.equal(state.list.hasMore, true);
    assert.equal(state.list.generation, initialState.list.generation + 1);
  });

  test('signing out forgets the token, the notes, the open note and any conflict', () => {
    const before = after(
      signedIn,
      { type: 'listLoaded', generation: 1, notes: [note(1)], cursor: null },
      { type: 'noteOpened', note: note(1), etag: '"v1"' },
      { type: 'conflict', id: 1, mine: { content: 'mine' }, theirs: note(1), theirsEtag: '"v2"' },
      { type: 'authMode', mode: 'signup' });
    const state = reduce(before, { type: 'signedOut' });
    assert.equal(state.token, null);
    assert.equal(state.email, '');
    assert.deepEqual(state.list.notes, []);
    assert.equal(state.current, null);
    assert.equal(state.conflict, null);
    assert.equal(state.authMode, 'signin');
    // A page still in flight for the old list is dropped when it arrives.
    assert.ok(state.list.generation > before.list.generation);
  });

  test('switching between sign-in and sign-up clears the last error', () => {
    const state = after({ type: 'authFailed', message: 'Wrong password.' },
      { type: 'authMode', mode: 'signup' });
    assert.equal(state.authMode, 'signup');
    assert.equal(state.authError, '');
  });
});

describe('the list', () => {
  test('pages append in order; a note seen on an earlier page is listed once', () => {
    const state = after(signedIn, { type: 'listLoading' },
      { type: 'listLoaded', generation: 1, notes: [note(3), note(2)], cursor: 'c1' },
      { type: 'listLoading' },
      { type: 'listLoaded', generation: 1, notes: [note(2), note(1)], cursor: null });
    assert.deepEqual(state.list.notes.map((n) => n.id), [3, 2, 1]);
    assert.equal(state.list.cursor, null);
    assert.equal(state.list.hasMore, false);
    assert.equal(state.list.loading, false);
  });

  test('a page or an error for an older generation changes nothing', () => {
    const state = after(signedIn, { type: 'listReset', query: 'milk' }, { type: 'listLoading' });
    assert.equal(state.list.generation, 2);
    assert.equal(reduce(state, { type: 'listLoaded', generation: 1, notes: [note(1)], cursor: null }),
      state);
    assert.equal(reduce(state, { type: 'listFailed', generation: 1, message: 'x' }), state);
  });

  test('a failure keeps what was loaded and says why; loading again clears it', () => {
    const failed = after(signedIn, { type: 'listLoading' },
      { type: 'listFailed', generation: 1, message: 'Cannot reach the server.' });
    assert.equal(failed.list.error, 'Cannot reach the server.');
    assert.equal(failed.list.loading, false);
    assert.equal(reduce(failed, { type: 'listLoading' }).list.error, '');
  });

  test('a reset keeps the query unless it is given a new one', () => {
    const searched = after(signedIn, { type: 'listReset', query: 'milk' });
    assert.equal(searched.list.query, 'milk');
    assert.equal(reduce(searched, { type: 'listReset' }).list.query, 'milk');
    assert.equal(reduce(searched, { type: 'listReset', query: '' }).list.query, '');
  });

  test('a changed note replaces its row; an unlisted one changes nothing', () => {
    const listed = after(signedIn,
      { type: 'listLoaded', generation: 1, notes: [note(2), note(1)], cursor: null });
    const changed = reduce(listed, { type: 'noteChanged', note: note(1, 'edited') });
    assert.deepEqual(changed.list.notes.map((n) => n.content), ['note 2', 'edited']);
    assert.equal(reduce(listed, { type: 'noteChanged', note: note(9) }), listed);
    const removed = reduce(listed, { type: 'noteRemoved', id: 2 });
    assert.deepEqual(removed.list.notes.map((n) => n.id), [1]);
  });
});

describe('the detail pane', () => {
  test('opening a note puts a new revision in the editor, its date as the field shows it', () => {
    const loading = after(signedIn, { type: 'noteOpened', note: note(1), etag: null, loading: true });
    assert.equal(detailOf(loading), 'editor');
    assert.equal(loading.current.loading, true);
    assert.equal(loading.current.dateInput, '2026-11-29T18:30');
    const loaded = reduce(loading, { type: 'noteOpened', note: note(1, 'newer'), etag: '"v2"' });
    assert.equal(loaded.current.loading, false);
    assert.equal(loaded.current.etag, '"v2"');
    assert.ok(loaded.current.revision > loading.current.revision);
  });

  test('a note that failed to load is editable again, with the same revision', () => {
    const state = after(signedIn, { type: 'noteOpened', note: note(1), etag: null, loading: true });
    const ended = reduce(state, { type: 'noteLoaded' });
    assert.equal(ended.current.loading, false);
    assert.equal(ended.current.revision, state.current.revision);
  });

  test('a new note has no id and proposes a date', () => {
    const state = after(signedIn, { type: 'newNote', date: '2026-11-29 08:00:00' });
    assert.equal(state.current.id, null);
    assert.equal(state.current.content, '');
    assert.equal(state.current.dateInput, '2026-11-29T08:00');
  });

  test('a conflict shows over the editor; a failed choice says why and keeps it', () => {
    const open = after(signedIn, { type: 'noteOpened', note: note(1), etag: '"v1"' });
    const conflict = reduce(open, {
      type: 'conflict', id: 1, mine: { content: 'mine' }, theirs: note(1, 'theirs'),
      theirsEtag: '"v2"',
    });
    assert.equal(detailOf(conflict), 'conflict');
    assert.equal(conflict.current, open.current);
    const failed = reduce(conflict, { type: 'conflictFailed', message: 'Too long.' });
    assert.equal(failed.conflict.error, 'Too long.');
    assert.equal(detailOf(failed), 'conflict');
    // Opening the saved version ends the conflict.
    const theirs = reduce(failed, { type: 'noteOpened', note: note(1, 'theirs'), etag: '"v2"' });
    assert.equal(theirs.conflict, null);
    assert.equal(detailOf(theirs), 'editor');
  });

  test('keeping mine targets the version shown, and leaves the editor’s fields alone', () => {
    const conflict = after(signedIn, { type: 'noteOpened', note: note(1), etag: '"v1"' },
      { type: 'conflict', id: 1, mine: { content: 'mine' }, theirs: note(1, 'theirs', '2026-12-01'),
        theirsEtag: '"v2"' });
    const rebased = reduce(conflict,
      { type: 'rebased', id: 1, etag: '"v2"', date: '2026-12-01' });
    assert.equal(rebased.current.etag, '"v2"');
    assert.equal(rebased.current.date, '2026-12-01');
    assert.equal(rebased.current.revision, conflict.current.revision);
    const copying = reduce(conflict, { type: 'copying' });
    assert.equal(copying.current.id, null);
    assert.equal(copying.current.etag, null);
    assert.equal(copying.current.revision, conflict.current.revision);
  });

  test('closing empties the pane and its error', () => {
    const state = after(signedIn, { type: 'noteOpened', note: note(1), etag: '"v1"' },
      { type: 'editorError', message: 'Too long.' }, { type: 'detailClosed' });
    assert.equal(detailOf(state), 'empty');
    assert.equal(state.editorError, '');
  });

  test('dirty: only the open editor’s fields against the note they were filled with', () => {
    const fields = { content: 'note 1', dateInput: '2026-11-29T18:30' };
    assert.equal(isDirty(initialState, fields), false);
    const open = after(signedIn, { type: 'noteOpened', note: note(1), etag: '"v1"' });
    assert.equal(isDirty(open, fields), false);
    assert.equal(isDirty(open, { ...fields, content: 'note 1!' }), true);
    assert.equal(isDirty(open, { ...fields, dateInput: '2026-11-30T18:30' }), true);
    const conflict = reduce(open,
      { type: 'conflict', id: 1, mine: { content: 'x' }, theirs: null, theirsEtag: null });
    assert.equal(isDirty(conflict, { ...fields, content: 'x' }), false);
  });
});

test('every notice is new, even one with the same words, so the view says it again', () => {
  const first = after({ type: 'notice', message: 'Saved.' });
  const second = reduce(first, { type: 'notice', message: 'Saved.' });
  assert.equal(second.notice.text, 'Saved.');
  assert.notEqual(second.notice, first.notice);
  assert.equal(reduce(second, { type: 'busy', busy: true }).notice, second.notice);
});

describe('createStore', () => {
  test('tells each listener the new state and the one before, in order', () => {
    const store = createStore(reduce, initialState);
    const heard = [];
    store.subscribe((state, previous) => heard.push(['a', previous.token, state.token]));
    store.subscribe((state) => heard.push(['b', state.token]));
    store.dispatch(signedIn);
    assert.deepEqual(heard, [['a', null, 'tok'], ['b', 'tok']]);
    assert.equal(store.getState().token, 'tok');
  });

  test('an action that changes nothing tells no one', () => {
    const store = createStore(reduce, initialState);
    let calls = 0;
    store.subscribe(() => { calls += 1; });
    store.dispatch({ type: 'listFailed', generation: 99, message: 'stale' });
    assert.equal(calls, 0);
  });

  test('a listener may not dispatch; unsubscribing stops the calls', () => {
    const store = createStore(reduce, initialState);
    const stop = store.subscribe(() => store.dispatch({ type: 'busy', busy: false }));
    assert.throws(() => store.dispatch({ type: 'busy', busy: true }), /listener dispatched/);
    stop();
    store.dispatch({ type: 'busy', busy: false });
    assert.equal(store.getState().busy, false);
  });
});
