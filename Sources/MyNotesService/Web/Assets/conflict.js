// @ts-check
// The choice after a save was refused as stale (412) or met a deleted note: the saved
// version beside the user's, and what to keep. Nothing is overwritten or dropped until
// the user chooses.

import { messageOf, statusOf } from './api.js';
import { formatNoteDate } from './dates.js';
import { byId, setText } from './dom.js';

/** @typedef {import('./store.js').State} State */
/** @typedef {import('./store.js').Draft} Draft */
/** @typedef {import('./store.js').Note} Note */
/** @typedef {import('./list.js').AppStore} AppStore */
/** @typedef {import('./editor.js').createEditor} createEditor */
/** @typedef {import('./api.js').Api} Api */
/** @typedef {import('./i18n.js').Translate} Translate */
/** @typedef {'mine' | 'theirs' | 'copy'} Choice */

/**
 * @param {{
 *   store: AppStore, api: Api, t: Translate, locale: string,
 *   editor: () => ReturnType<createEditor>
 * }} context `editor` gives the editor, which writes the chosen version
 */
export function createConflict({ store, api, t, locale, editor }) {
  const ui = {
    title: byId('conflict-title', HTMLElement),
    text: byId('conflict-text', HTMLElement),
    theirsDate: byId('theirs-date', HTMLElement),
    theirsContent: byId('theirs-content', HTMLElement),
    mineDate: byId('mine-date', HTMLElement),
    mineContent: byId('mine-content', HTMLElement),
    keepMine: byId('keep-mine', HTMLButtonElement),
    keepTheirs: byId('keep-theirs', HTMLButtonElement),
    saveCopy: byId('save-copy', HTMLButtonElement),
  };

  /**
   * @param {State} state
   * @param {State} [previous]
   */
  function render(state, previous) {
    for (const button of [ui.keepMine, ui.keepTheirs, ui.saveCopy]) button.disabled = state.busy;
    const conflict = state.conflict;
    if (previous && conflict === previous.conflict) return;
    const theirs = conflict?.theirs ?? null;
    const title = conflict?.live
      ? (theirs ? 'liveConflictTitle' : 'liveConflictGoneTitle')
      : (theirs ? 'conflictTitle' : 'conflictGoneTitle');
    setText(ui.title, conflict ? t(title) : '');
    setText(ui.text, conflict
      ? conflict.error || t(theirs ? 'conflictText' : 'conflictGoneText') : '');
    setText(ui.theirsDate, theirs ? formatNoteDate(theirs.date, locale) : '');
    setText(ui.theirsContent, theirs ? theirs.content : conflict ? t('theirsGone') : '');
    setText(ui.mineDate, conflict?.mine.date ? formatNoteDate(conflict.mine.date, locale) : '');
    setText(ui.mineContent, conflict?.mine.content ?? '');
    ui.keepMine.hidden = !theirs;
    setText(ui.keepTheirs, t(conflict && !theirs ? 'discardMine' : 'keepTheirs'));
  }

  /**
   * Shows `theirs` (null: the note is gone) beside `mine`, and tells the list.
   * @param {{
   *   id: number, mine: Draft, theirs: Note | null, theirsEtag: string | null, live?: boolean,
   *   focus?: boolean
   * }} versions `live`: the change stream told, before any save; `focus`: move the focus
   *   to the choice (the editor the user was in is hidden)
   */
  function present({ id, mine, theirs, theirsEtag, live = false, focus = true }) {
    store.dispatch({ type: 'conflict', id, mine, theirs, theirsEtag, live });
    store.dispatch(theirs ? { type: 'noteChanged', note: theirs } : { type: 'noteRemoved', id });
    if (focus) ui.title.focus();
  }

  /**
   * Shows the note as saved now beside `mine`, after a save of note `id` was refused.
   * @param {number} id
   * @param {Draft} mine
   */
  async function show(id, mine) {
    let theirs = null;
    let theirsEtag = null;
    try {
      ({ note: theirs, etag: theirsEtag } = await api.note(id));
    } catch (error) {
      if (statusOf(error) !== 404) {
        store.dispatch({ type: 'editorError', message: messageOf(error, t) });
        return;
      }
    }
    present({ id, mine, theirs, theirsEtag });
  }

  /** @param {Choice} choice */
  async function resolve(choice) {
    const state = store.getState();
    const conflict = state.conflict;
    if (!conflict || state.busy) return;
    store.dispatch({ type: 'busy', busy: true });
    try {
      if (choice === 'theirs') {
        if (conflict.theirs) {
          store.dispatch({ type: 'noteOpened', note: conflict.theirs, etag: conflict.theirsEtag });
          editor().focus();
        } else {
          editor().close();
        }
        return;
      }
      if (choice === 'mine' && conflict.theirs) {
        // Replace exactly the version the user has just seen; if it moved again, ask again.
        store.dispatch({
          type: 'rebased', id: conflict.id, etag: conflict.theirsEtag, date: conflict.theirs.date,
        });
      } else {
        store.dispatch({ type: 'copying' });
      }
      const current = store.getState().current;
      if (current) await editor().write(current, conflict.mine);
      editor().focus();
    } catch (error) {
      const status = statusOf(error);
      if (choice === 'mine' && (status === 412 || status === 404)) {
        await show(conflict.id, conflict.mine);
      } else {
        store.dispatch({ type: 'conflictFailed', message: messageOf(error, t) });
      }
    } finally {
      store.dispatch({ type: 'busy', busy: false });
    }
  }

  ui.keepMine.addEventListener('click', () => resolve('mine'));
  ui.keepTheirs.addEventListener('click', () => resolve('theirs'));
  ui.saveCopy.addEventListener('click', () => resolve('copy'));
  store.subscribe(render);
  render(store.getState());

  return { show, present, resolve };
}
