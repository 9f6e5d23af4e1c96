// @ts-check
// The account's changes as the change feed sends them (docs/REST-API.md, "Changes"), and
// what one does to the list loaded so far. Pure: the unit tests (Tests/WebUnit) drive it.

/** @typedef {import('./store.js').Note} Note */
/** @typedef {import('./store.js').List} List */

/**
 * One change of the account's notes: `note` is the note as it is now (null for `deleted`);
 * `version` its version (for `deleted`, the last one); `cursor` where the feed stands after it.
 * @typedef {{
 *   cursor: string, type: 'created' | 'updated' | 'deleted', id: number, version: number,
 *   note: Note | null
 * }} Change
 */

const TYPES = new Set(['created', 'updated', 'deleted']);

/**
 * The change in an event's data, checked; null for anything else (a server bug must not
 * put a broken row in the list).
 * @param {string} data
 * @returns {Change | null}
 */
export function parseChange(data) {
  let value;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object') return null;
  const { cursor, type, id, version, note } = value;
  if (typeof cursor !== 'string' || !TYPES.has(type)) return null;
  if (!Number.isSafeInteger(id) || !Number.isSafeInteger(version)) return null;
  if (type === 'deleted') return { cursor, type, id, version, note: null };
  if (!note || typeof note !== 'object' || note.id !== id
    || typeof note.content !== 'string' || typeof note.date !== 'string') return null;
  return { cursor, type, id, version, note };
}

/**
 * The ETag of a note at `version`, as the REST API makes it.
 * @param {number} id
 * @param {number} version
 */
export function etagOf(id, version) {
  return `"${id}.${version}"`;
}

/**
 * The version an ETag of the REST API names; null when it is not one of them.
 * @param {string | null | undefined} etag
 */
export function versionOf(etag) {
  const match = /^(?:W\/)?"\d+\.(\d+)"$/.exec(etag ?? '');
  return match ? Number(match[1]) : null;
}

/**
 * A note's place in the newest-first order as the server sorts: its date as a point in
 * time (a bare date is midnight; the forms sort as text), then its id.
 * @param {Note} note
 */
function sortKey(note) {
  return note.date.length === 10 ? `${note.date} 00:00:00` : note.date;
}

/**
 * Whether `a` is listed before `b`.
 * @param {Note} a
 * @param {Note} b
 */
export function listedBefore(a, b) {
  const ka = sortKey(a);
  const kb = sortKey(b);
  return ka === kb ? a.id > b.id : ka > kb;
}

/**
 * The server's case folding for search (TextFolding): ASCII by lower case; anything else
 * upper- then lower-cased, so that e.g. `ß` finds `SS`.
 * @param {string} text
 */
export function fold(text) {
  return /^[\x00-\x7f]*$/.test(text) ? text.toLowerCase() : text.toUpperCase().toLowerCase();
}

/**
 * Whether the list searching for `query` shows `note`.
 * @param {Note} note
 * @param {string} query
 */
export function matchesQuery(note, query) {
  const needle = fold(query);
  return !needle || fold(note.content).includes(needle);
}

/**
 * The list after `change`. A note is listed where the server would list it, and only
 * within what is loaded: one that sorts past the last loaded note while more pages are to
 * come is left to those pages (they are keyset pages, so it will be on one). Returns
 * `list` itself when nothing it shows changed, so "the list changed" is an identity test.
 * @param {List} list
 * @param {Change} change
 * @returns {List}
 */
export function applyChange(list, change) {
  const index = list.notes.findIndex((note) => note.id === change.id);
  const listed = index < 0 ? null : list.notes[index];
  const note = change.note;
  if (!note || !matchesQuery(note, list.query)) {
    if (!listed) return list;
    return { ...list, notes: list.notes.filter((_, i) => i !== index) };
  }
  if (listed && listed.content === note.content && listed.date === note.date) return list;
  const others = listed ? list.notes.filter((_, i) => i !== index) : list.notes;
  let at = others.findIndex((other) => listedBefore(note, other));
  if (at < 0) {
    // After every loaded note: listed only when there are no more pages to load.
    if (list.hasMore) return listed ? { ...list, notes: others } : list;
    at = others.length;
  }
  return { ...list, notes: [...others.slice(0, at), note, ...others.slice(at)] };
}
