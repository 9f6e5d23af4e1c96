// @ts-check
// The list pane: the notes loaded so far over the API's cursor, the search box, and the
// messages for loading, empty, no matches and errors. Rows are kept per note and reused,
// so re-rendering keeps the focus and the scroll position.

import { messageOf } from './api.js';
import { formatNoteDate, toInputValue } from './dates.js';
import { byId, element } from './dom.js';
import { highlight } from './highlight.js';
import { truncate } from './text.js';

/** @typedef {import('./store.js').State} State */
/** @typedef {import('./store.js').Action} Action */
/** @typedef {import('./store.js').Note} Note */
/** @typedef {import('./store.js').Store<State, Action>} AppStore */
/** @typedef {import('./api.js').Api} Api */
/** @typedef {import('./i18n.js').Translate} Translate */

const PAGE_SIZE = 30;
const SEARCH_DELAY_MS = 250;

/**
 * @param {{
 *   store: AppStore, api: Api, t: Translate, locale: string, open: (id: number) => void
 * }} context `open` opens a note that was chosen in the list
 */
export function createList({ store, api, t, locale, open }) {
  const ui = {
    list: byId('note-list', HTMLUListElement),
    message: byId('list-message', HTMLElement),
    retry: byId('list-retry', HTMLButtonElement),
    loadMore: byId('load-more', HTMLButtonElement),
    searchForm: byId('search-form', HTMLFormElement),
    search: byId('search', HTMLInputElement),
  };
  /** @type {Map<number, { item: HTMLLIElement, button: HTMLButtonElement, note: Note | null }>} */
  const rows = new Map();
  let searchTimer = 0;

  /**
   * @param {State} state
   * @param {State} [previous]
   */
  function render(state, previous) {
    const selected = state.current?.id ?? null;
    if (!previous || state.list.notes !== previous.list.notes
      || selected !== (previous.current?.id ?? null)) {
      renderRows(state.list.notes, selected, state.list.query);
    }
    if (!previous || state.list !== previous.list) renderMessage(state.list);
  }

  /**
   * Makes the rows match `notes`, in order, reusing the row of every note still listed.
   * @param {Note[]} notes
   * @param {number | null} selected
   * @param {string} query the search, whose matches the rows mark
   */
  function renderRows(notes, selected, query) {
    const listed = new Set();
    let next = ui.list.firstElementChild;
    for (const note of notes) {
      listed.add(note.id);
      let row = rows.get(note.id);
      if (!row) {
        const button = element('button', 'note-item');
        button.type = 'button';
        button.dataset.id = String(note.id);
        const item = element('li');
        item.append(button);
        row = { item, button, note: null };
        rows.set(note.id, row);
      }
      if (row.note !== note) {
        const title = element('span', 'note-title');
        title.append(...titlePieces(note, query));
        const date = element('time', 'note-date', formatNoteDate(note.date, locale));
        date.dateTime = toInputValue(note.date) || note.date;
        row.button.replaceChildren(title, date);
        row.note = note;
      }
      row.button.setAttribute('aria-current', String(note.id === selected));
      if (row.item === next) next = next.nextElementSibling;
      else ui.list.insertBefore(row.item, next);
    }
    for (const [id, row] of rows) {
      if (listed.has(id)) continue;
      row.item.remove();
      rows.delete(id);
    }
  }

  /**
   * A row's title: the note's start, or in a search the snippet around its first match,
   * with every match in a <mark> (as text: a note's markup is never parsed).
   * @param {Note} note
   * @param {string} query
   */
  function titlePieces(note, query) {
    const text = truncate(query && note.snippet ? note.snippet : note.content, 300);
    if (!query) return [text];
    return highlight(text, query).map((piece) => (
      piece.match ? element('mark', 'note-match', piece.text) : piece.text));
  }

  /** @param {State['list']} list */
  function renderMessage({ loading, error, notes, hasMore, query }) {
    ui.list.setAttribute('aria-busy', String(loading));
    let message = '';
    if (error) message = error;
    else if (loading) message = t('loading');
    else if (notes.length === 0) message = query ? t('noMatches', { q: query }) : t('empty');
    ui.message.textContent = message;
    ui.message.classList.toggle('is-error', Boolean(error));
    ui.retry.hidden = !error;
    ui.loadMore.hidden = loading || Boolean(error) || !hasMore;
  }

  /** Fetches the next page; an answer that arrives after a reset or search is dropped. */
  async function loadMore() {
    const { list, token } = store.getState();
    if (list.loading || !list.hasMore || !token) return;
    const generation = list.generation;
    store.dispatch({ type: 'listLoading' });
    try {
      const page = await api.notes({ limit: PAGE_SIZE, cursor: list.cursor, query: list.query });
      store.dispatch({ type: 'listLoaded', generation, notes: page.notes, cursor: page.nextCursor });
    } catch (error) {
      store.dispatch({ type: 'listFailed', generation, message: messageOf(error, t) });
    }
  }

  /** Loads the list again from the top (a note was added, or its date moved it). */
  function reset() {
    store.dispatch({ type: 'listReset' });
    loadMore();
  }

  function applySearch() {
    clearTimeout(searchTimer);
    const query = ui.search.value.trim();
    if (query === store.getState().list.query) return;
    store.dispatch({ type: 'listReset', query });
    loadMore();
  }

  /** @param {number} id */
  const buttonFor = (id) => rows.get(id)?.button ?? null;

  /**
   * The row to move the focus to when note `id` goes away: the next, else the previous.
   * @param {number} id
   */
  function neighbourOf(id) {
    const item = rows.get(id)?.item;
    const next = item?.nextElementSibling ?? item?.previousElementSibling;
    return next?.querySelector('button') ?? null;
  }

  /**
   * Up and down arrows walk the list, as in a native table view.
   * @param {KeyboardEvent} event
   */
  function onKeyDown(event) {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const buttons = [...ui.list.querySelectorAll('.note-item')];
    const index = document.activeElement ? buttons.indexOf(document.activeElement) : -1;
    if (index < 0) return;
    event.preventDefault();
    const next = buttons[index + (event.key === 'ArrowDown' ? 1 : -1)];
    if (next instanceof HTMLElement) next.focus();
    else if (event.key === 'ArrowDown') loadMore();
  }

  ui.searchForm.addEventListener('submit', (event) => {
    event.preventDefault();
    applySearch();
  });
  ui.search.addEventListener('input', () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(applySearch, SEARCH_DELAY_MS);
  });
  ui.list.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest('.note-item') : null;
    if (button instanceof HTMLElement) open(Number(button.dataset.id));
  });
  ui.list.addEventListener('keydown', onKeyDown);
  ui.retry.addEventListener('click', loadMore);
  ui.loadMore.addEventListener('click', loadMore);
  // Infinite scroll: the "Load more" button loads itself when it scrolls into view, and
  // stays a plain button for keyboards and for browsers that scroll differently.
  new IntersectionObserver((entries) => {
    if (entries.some((entry) => entry.isIntersecting)) loadMore();
  }).observe(ui.loadMore);
  store.subscribe(render);
  render(store.getState());

  return { loadMore, reset, applySearch, buttonFor, neighbourOf, search: ui.search };
}
