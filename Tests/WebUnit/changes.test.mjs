import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
  applyChange, etagOf, fold, listedBefore, matchesQuery, parseChange, versionOf,
} from '../../Sources/MyNotesService/Web/Assets/changes.js';
import { initialState, reduce } from '../../Sources/MyNotesService/Web/Assets/store.js';

const note = (id, content, date = '2026-11-29') => ({ id, content, date });
const list = (notes, { hasMore = false, query = '' } = {}) => ({
  notes, cursor: hasMore ? 'c' : null, hasMore, loading: false, error: '', query, generation: 1,
});
const created = (n, version = 1) => ({
  cursor: String(n.id * 10 + version), type: 'created', id: n.id, version, note: n,
});
const updated = (n, version = 2) => ({ ...created(n, version), type: 'updated' });
const deleted = (id, version = 3) => ({ cursor: '99', type: 'deleted', id, version, note: null });
const ids = (l) => l.notes.map((n) => n.id);

describe('parseChange', () => {
  test('takes the contract’s three kinds', () => {
    const n = { id: 12, content: 'milk', date: '2026-11-29', createdAt: 'x', updatedAt: 'y' };
    assert.deepEqual(
      parseChange(JSON.stringify({ cursor: '17', type: 'created', id: 12, version: 1, note: n })),
      { cursor: '17', type: 'created', id: 12, version: 1, note: n });
    assert.equal(parseChange(JSON.stringify(updated(n, 3))).version, 3);
    assert.deepEqual(parseChange('{"cursor":"18","type":"deleted","id":12,"version":4,"note":null}'),
      { cursor: '18', type: 'deleted', id: 12, version: 4, note: null });
  });

  test('refuses anything else, rather than list a broken row', () => {
    const good = { cursor: '1', type: 'updated', id: 1, version: 2, note: note(1, 'a') };
    for (const bad of [
      'not json', 'null', '[]', '"text"',
      { ...good, cursor: 1 }, { ...good, type: 'moved' }, { ...good, id: '1' },
      { ...good, version: 1.5 }, { ...good, note: null }, { ...good, note: note(2, 'a') },
      { ...good, note: { id: 1, content: 5, date: '2026-11-29' } },
      { ...good, note: { id: 1, content: 'a' } },
    ]) {
      assert.equal(parseChange(typeof bad === 'string' ? bad : JSON.stringify(bad)), null,
        JSON.stringify(bad));
    }
  });
});

describe('ETags and versions', () => {
  test('the REST API’s ETag form, both ways', () => {
    assert.equal(etagOf(12, 3), '"12.3"');
    assert.equal(versionOf('"12.3"'), 3);
    assert.equal(versionOf('W/"12.30"'), 30);
    for (const other of [null, undefined, '', '"v3"', '12.3', '"12"', '"a.3"']) {
      assert.equal(versionOf(other), null, String(other));
    }
  });
});

describe('order and search, as the server has them', () => {
  test('newest date first (a bare date is its midnight), then the higher id', () => {
    assert.ok(listedBefore(note(1, '', '2026-11-30'), note(2, '', '2026-11-29 23:59:59')));
    assert.ok(listedBefore(note(1, '', '2026-11-29 00:00:01'), note(2, '', '2026-11-29')));
    assert.ok(listedBefore(note(3, '', '2026-11-29'), note(2, '', '2026-11-29 00:00:00')));
    assert.ok(!listedBefore(note(2, '', '2026-11-29'), note(3, '', '2026-11-29')));
  });

  test('search folds case as the server does, CJK included', () => {
    assert.equal(fold('MiLK'), 'milk');
    assert.equal(fold('STRASSE'), 'strasse');
    assert.equal(fold('Straße'), 'strasse');
    assert.ok(matchesQuery(note(1, 'Buy MILK'), 'milk'));
    assert.ok(matchesQuery(note(1, '买牛奶'), '牛奶'));
    assert.ok(matchesQuery(note(1, 'anything'), ''));
    assert.ok(!matchesQuery(note(1, 'Buy bread'), 'milk'));
  });
});

describe('applyChange', () => {
  const a = note(3, 'a', '2026-11-30');
  const b = note(2, 'b', '2026-11-29');
  const c = note(1, 'c', '2026-11-28');

  test('a new note takes its place in the order', () => {
    assert.deepEqual(ids(applyChange(list([a, c]), created(b))), [3, 2, 1]);
    assert.deepEqual(ids(applyChange(list([b, c]), created(a))), [3, 2, 1]);
    assert.deepEqual(ids(applyChange(list([a, b]), created(c))), [3, 2, 1]);
    assert.deepEqual(ids(applyChange(list([]), created(a))), [3]);
  });

  test('past the last loaded note, a new note is left to the pages still to load', () => {
    const more = list([a, b], { hasMore: true });
    assert.equal(applyChange(more, created(c)), more);
    assert.deepEqual(ids(applyChange(more, created(note(4, 'd', '2026-11-29 12:00:00')))),
      [3, 4, 2]);
    // Nothing loaded yet: the first page will bring it.
    const empty = list([], { hasMore: true });
    assert.equal(applyChange(empty, created(a)), empty);
  });

  test('an edit replaces the row, and moves it when its date moved', () => {
    const edited = applyChange(list([a, b, c]), updated({ ...b, content: 'b2' }));
    assert.deepEqual(edited.notes.map((n) => n.content), ['a', 'b2', 'c']);
    const moved = applyChange(list([a, b, c]), updated({ ...c, date: '2026-12-01' }));
    assert.deepEqual(ids(moved), [1, 3, 2]);
    // Moved past what is loaded: it goes, and comes back with its page.
    const away = applyChange(list([a, b], { hasMore: true }), updated({ ...a, date: '2020-01-01' }));
    assert.deepEqual(ids(away), [2]);
  });

  test('an edit of a note not loaded yet lists it where it now belongs', () => {
    assert.deepEqual(ids(applyChange(list([a, b], { hasMore: true }),
      updated({ ...c, date: '2026-11-29 08:00:00' }))), [3, 1, 2]);
  });

  test('a deletion removes the row', () => {
    assert.deepEqual(ids(applyChange(list([a, b, c]), deleted(2))), [3, 1]);
  });

  test('a search shows the notes that match, before and after the change', () => {
    const searching = list([a], { query: 'milk' });
    assert.equal(applyChange(searching, created(note(9, 'bread'))), searching);
    assert.deepEqual(ids(applyChange(searching, created(note(9, 'MILK', '2026-12-01')))), [9, 3]);
    const milk = list([note(5, 'milk')], { query: 'milk' });
    assert.deepEqual(ids(applyChange(milk, updated(note(5, 'bread')))), []);
  });

  test('nothing shown changes: the same list, so views and announcements stay quiet', () => {
    const l = list([a, b, c]);
    assert.equal(applyChange(l, updated({ ...b, createdAt: 'x' })), l);
    assert.equal(applyChange(l, deleted(42)), l);
    assert.equal(applyChange(l, created(b)), l);
  });

  test('never mutates the list it was given', () => {
    const l = list([a, b, c]);
    const frozen = JSON.stringify(l);
    applyChange(l, created(note(4, 'd', '2026-11-29 12:00:00')));
    applyChange(l, updated({ ...a, date: '2020-01-01' }));
    applyChange(l, deleted(2));
    assert.equal(JSON.stringify(l), frozen);
  });
});

describe('the store', () => {
  test('remoteChange applies the change to the list, and is a no-op when nothing shows', () => {
    const loaded = reduce(reduce(reduce(initialState, { type: 'signedIn', token: 't', email: 'e' }),
      { type: 'listLoading' }),
    { type: 'listLoaded', generation: 1, notes: [note(1, 'a')], cursor: null });
    const next = reduce(loaded, { type: 'remoteChange', change: created(note(2, 'b', '2026-12-01')) });
    assert.deepEqual(next.list.notes.map((n) => n.content), ['b', 'a']);
    assert.equal(reduce(next, { type: 'remoteChange', change: deleted(7) }), next);
  });

  test('liveState is kept; a live conflict says so', () => {
    assert.equal(reduce(initialState, { type: 'liveState', live: 'open' }).live, 'open');
    assert.equal(initialState.live, 'off');
    const shown = reduce(initialState, {
      type: 'conflict', id: 1, mine: { content: 'x' }, theirs: null, theirsEtag: null, live: true,
    });
    assert.equal(shown.conflict.live, true);
    const saved = reduce(initialState, {
      type: 'conflict', id: 1, mine: { content: 'x' }, theirs: null, theirsEtag: null,
    });
    assert.equal(saved.conflict.live, false);
  });
});
