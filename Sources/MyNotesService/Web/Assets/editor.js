// @ts-check
// The detail pane's editor: open, write, save and delete a note; and the pane itself,
// which is a history entry while open, so the browser's (or phone's) Back button closes it
// as the app's own does — instead of leaving the page, and the in-memory token with it.
// Every save and delete carries the note's ETag in If-Match; a stale one goes to the
// conflict view (conflict.js), never over the other version.

import { messageOf, statusOf } from './api.js';
import { apiDate, dateForSave, formatNoteDate } from './dates.js';
import { byId, confirmDialog, setText } from './dom.js';
import { detailOf, isDirty } from './store.js';
import { preview } from './text.js';

/** @typedef {import('./store.js').State} State */
/** @typedef {import('./store.js').Current} Current */
/** @typedef {import('./store.js').Draft} Draft */
/** @typedef {import('./store.js').Note} Note */
/** @typedef {import('./list.js').AppStore} AppStore */
/** @typedef {ReturnType<typeof import('./list.js').createList>} List */
/** @typedef {import('./api.js').Api} Api */
/** @typedef {import('./i18n.js').Translate} Translate */

/**
 * @param {{
 *   store: AppStore, api: Api, t: Translate, locale: string, list: List,
 *   announce: (message: string) => void,
 *   showConflict: (id: number, mine: Draft) => Promise<void>
 * }} context `showConflict` is called when a save meets a newer or deleted note
 */
export function createEditor({ store, api, t, locale, list, announce, showConflict }) {
  const ui = {
    notesView: byId('notes-view', HTMLElement),
    empty: byId('detail-empty', HTMLElement),
    editor: byId('editor', HTMLFormElement),
    conflict: byId('conflict', HTMLElement),
    title: byId('detail-title', HTMLElement),
    content: byId('note-content', HTMLTextAreaElement),
    date: byId('note-date', HTMLInputElement),
    error: byId('editor-error', HTMLElement),
    save: byId('save', HTMLButtonElement),
    remove: byId('delete', HTMLButtonElement),
    back: byId('back', HTMLButtonElement),
    newNote: byId('new-note', HTMLButtonElement),
  };
  let inHistory = false;

  /**
   * @param {State} state
   * @param {State} [previous]
   */
  function render(state, previous) {
    const detail = detailOf(state);
    ui.empty.hidden = detail !== 'empty';
    ui.editor.hidden = detail !== 'editor';
    ui.conflict.hidden = detail !== 'conflict';
    ui.notesView.classList.toggle('detail-open', detail !== 'empty');
    const current = state.current;
    if (current && current.revision !== previous?.current?.revision) {
      ui.content.value = current.content;
      ui.date.value = current.dateInput;
    } else if (!current) {
      // Nothing of a closed note stays in the page.
      ui.content.value = '';
      ui.date.value = '';
    }
    if (current && current !== previous?.current) {
      // The heading is the note's date, as in the seed app's detail view.
      ui.title.textContent = current.id == null
        ? t('newNoteTitle') : formatNoteDate(current.date, locale) || t('editNoteTitle');
    }
    ui.remove.hidden = current?.id == null;
    const loading = current?.loading ?? false;
    ui.content.readOnly = loading;
    ui.save.disabled = state.busy || loading;
    ui.remove.disabled = state.busy;
    if (loading) ui.editor.setAttribute('aria-busy', 'true');
    else ui.editor.removeAttribute('aria-busy');
    setText(ui.error, state.editorError);
    syncHistory(detail !== 'empty');
  }

  /** @param {boolean} open */
  function syncHistory(open) {
    if (open && !inHistory) {
      history.pushState({ detail: true }, '');
      inHistory = true;
    } else if (!open && inHistory) {
      inHistory = false;
      history.back();
    }
  }

  async function onPopState() {
    if (!inHistory) return; // the history.back() of closing the pane
    inHistory = false;
    if (await confirmLeave()) {
      close();
    } else {
      history.pushState({ detail: true }, '');
      inHistory = true;
    }
  }

  /** Closes the pane; the focus goes back to the note's row (or to "New note"). */
  function close({ focus = true } = {}) {
    const id = store.getState().current?.id;
    store.dispatch({ type: 'detailClosed' });
    if (focus) (id != null && list.buttonFor(id) || ui.newNote).focus();
  }

  const dirty = () => isDirty(store.getState(), {
    content: ui.content.value, dateInput: ui.date.value,
  });

  /**
   * What a save would send now; null when no note is open.
   * @returns {Draft | null}
   */
  function draft() {
    const current = store.getState().current;
    return current
      ? { content: ui.content.value, date: dateForSave(current, ui.date.value) } : null;
  }

  /** Whether leaving the open note is fine: unsaved text is dropped only when the user says so. */
  async function confirmLeave() {
    if (!store.getState().conflict && !dirty()) return true;
    return confirmDialog({ title: t('discardTitle'), text: t('discardText'), ok: t('discard') });
  }

  async function goBack() {
    const state = store.getState();
    if (!state.current && !state.conflict) return;
    if (await confirmLeave()) close();
  }

  /**
   * Opens a listed note: at once with the list's text, then — the list has no
   * validators — with the server's version and its ETag, before anything can be saved.
   * @param {number} id
   */
  async function open(id) {
    const state = store.getState();
    if (state.current?.id === id && detailOf(state) === 'editor') {
      ui.content.focus();
      return;
    }
    if (!(await confirmLeave())) return;
    const listed = store.getState().list.notes.find((note) => note.id === id);
    if (!listed) return;
    store.dispatch({ type: 'editorError', message: '' });
    store.dispatch({ type: 'noteOpened', note: listed, etag: null, loading: true });
    ui.content.focus();
    try {
      const { note, etag } = await api.note(id);
      if (store.getState().current?.id !== id) return;
      store.dispatch({ type: 'noteOpened', note, etag });
      store.dispatch({ type: 'noteChanged', note });
    } catch (error) {
      if (store.getState().current?.id !== id) return;
      if (statusOf(error) === 404) {
        store.dispatch({ type: 'noteRemoved', id });
        close();
        store.dispatch({ type: 'alert', message: t('goneElsewhere') });
      } else {
        store.dispatch({ type: 'editorError', message: messageOf(error, t) });
        store.dispatch({ type: 'noteLoaded' });
      }
    }
  }

  async function newNote() {
    if (!store.getState().token || !(await confirmLeave())) return;
    store.dispatch({ type: 'editorError', message: '' });
    store.dispatch({ type: 'newNote', date: apiDate(new Date()) });
    ui.content.focus();
  }

  async function save() {
    const state = store.getState();
    const current = state.current;
    if (!current || state.busy || current.loading) return;
    const mine = /** @type {Draft} */ (draft());
    store.dispatch({ type: 'editorError', message: '' });
    store.dispatch({ type: 'busy', busy: true });
    try {
      await write(current, mine);
    } catch (error) {
      if (store.getState().current !== current) return;
      const status = statusOf(error);
      if (current.id != null && (status === 412 || status === 404)) {
        await showConflict(current.id, mine);
      } else {
        store.dispatch({ type: 'editorError', message: messageOf(error, t) });
        ui.content.focus();
      }
    } finally {
      store.dispatch({ type: 'busy', busy: false });
    }
  }

  /**
   * Creates `current` (no id yet) or replaces it, If-Match its ETag, with `mine`.
   * @param {Current} current
   * @param {Draft} mine
   */
  async function write(current, mine) {
    if (current.id == null) {
      const { note, etag } = await api.create(mine);
      saved(current, note, etag, true);
    } else {
      const { note, etag } = await api.replace(current.id, mine, current.etag);
      saved(current, note, etag, note.date !== current.date);
    }
  }

  /**
   * @param {Current} previous the note as it was when the save began
   * @param {Note} note the note as saved
   * @param {string | null} etag
   * @param {boolean} reorder whether the note may have a new place in the list: a new
   *   note, or a new date, reloads the list from the top; otherwise the row is updated
   *   where it is, keeping the scroll position
   */
  function saved(previous, note, etag, reorder) {
    announce(t('saved'));
    const now = store.getState().current;
    if (now === previous || now?.id === note.id) store.dispatch({ type: 'noteOpened', note, etag });
    if (reorder) list.reset();
    else store.dispatch({ type: 'noteChanged', note });
  }

  async function remove() {
    const state = store.getState();
    const current = state.current;
    if (!current || current.id == null || state.busy || current.loading) return;
    const id = current.id;
    const ok = await confirmDialog({
      title: t('deleteTitle'), text: t('deleteText', { preview: preview(current.content) }),
      ok: t('delete'),
    });
    if (!ok || store.getState().current !== current) return;
    store.dispatch({ type: 'busy', busy: true });
    try {
      await api.remove(id, current.etag);
      removed(id);
      announce(t('deleted'));
    } catch (error) {
      const status = statusOf(error);
      if (status === 404) {
        removed(id);
        store.dispatch({ type: 'alert', message: t('goneElsewhere') });
      } else if (status === 412) {
        // Changed elsewhere since it was opened: show what would be deleted, and let the
        // user decide again.
        await reload(current, id);
        store.dispatch({ type: 'editorError', message: t('changedBeforeDelete') });
      } else {
        store.dispatch({ type: 'editorError', message: messageOf(error, t) });
      }
    } finally {
      store.dispatch({ type: 'busy', busy: false });
    }
  }

  /**
   * @param {number} id a note that is gone: closed, and its row with it
   * @param {{ focus?: boolean }} options `focus`: move the focus to the next row
   */
  function removed(id, { focus = true } = {}) {
    close({ focus: false });
    if (focus) (list.neighbourOf(id) ?? ui.newNote).focus();
    store.dispatch({ type: 'noteRemoved', id });
  }

  /**
   * Puts the server's version of the open note in the editor.
   * @param {Current} current the note as it was when asked
   * @param {number} id its id
   */
  async function reload(current, id) {
    try {
      const { note, etag } = await api.note(id);
      if (store.getState().current !== current) return;
      store.dispatch({ type: 'noteOpened', note, etag });
      store.dispatch({ type: 'noteChanged', note });
    } catch (error) {
      store.dispatch({ type: 'editorError', message: messageOf(error, t) });
    }
  }

  ui.editor.addEventListener('submit', (event) => {
    event.preventDefault();
    save();
  });
  ui.back.addEventListener('click', goBack);
  ui.remove.addEventListener('click', remove);
  ui.newNote.addEventListener('click', newNote);
  window.addEventListener('popstate', onPopState);
  store.subscribe(render);
  render(store.getState());

  return {
    open, newNote, save, write, close, removed, goBack, confirmLeave, dirty, draft,
    focus: () => ui.content.focus(),
    /** Whether the focus is in the editor's form. */
    hasFocus: () => ui.editor.contains(document.activeElement),
  };
}
