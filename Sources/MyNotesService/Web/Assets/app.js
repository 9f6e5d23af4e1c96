// @ts-check
// MyNotes in the browser: a small master–detail app over the REST API v1. This module
// starts it: it picks the language, makes the store, the API and the views, and keeps
// what belongs to no pane — signing in and out, the alert and status lines, the keys.
//
// Rules the app keeps (docs/WEB.md):
// - Note text only ever reaches the page through textContent and form values (the policy
//   also enforces Trusted Types, so an HTML sink would throw rather than render).
// - The access token lives in the store, in memory only: no cookie, no storage. A reload
//   asks to sign in again; in exchange there is nothing for CSRF or a stolen-storage
//   attack to use.
// - A save or delete carries the note's ETag in If-Match, so a stale tab gets 412 and the
//   user chooses between the versions; nothing is overwritten silently.

import { createAccountPage } from './account.js';
import { Api, SESSION_EXPIRED, messageOf } from './api.js';
import { createConflict } from './conflict.js';
import { byId, setText, wireConfirmDialog } from './dom.js';
import { createEditor } from './editor.js';
import { localeOf, pickLanguage, translator } from './i18n.js';
import { createList } from './list.js';
import { createLive } from './live.js';
import { createStore, detailOf, initialState, reduce } from './store.js';

/** @typedef {import('./store.js').State} State */
/** @typedef {import('./i18n.js').MessageKey} MessageKey */

const STATUS_MS = 4000;

const language = pickLanguage(navigator.languages?.length ? navigator.languages : [navigator.language]);
const { locale, acceptLanguage } = localeOf(language);
const t = translator(language);

const ui = {
  account: byId('account', HTMLElement),
  accountEmail: byId('account-email', HTMLElement),
  signOut: byId('sign-out', HTMLButtonElement),
  alert: byId('alert', HTMLElement),
  alertText: byId('alert-text', HTMLElement),
  alertClose: byId('alert-close', HTMLButtonElement),
  status: byId('status', HTMLElement),
  authView: byId('auth-view', HTMLElement),
  authForm: byId('auth-form', HTMLFormElement),
  authTitle: byId('auth-title', HTMLElement),
  authEmail: byId('auth-email', HTMLInputElement),
  authPassword: byId('auth-password', HTMLInputElement),
  authHint: byId('auth-hint', HTMLElement),
  authError: byId('auth-error', HTMLElement),
  authSubmit: byId('auth-submit', HTMLButtonElement),
  authSwitchText: byId('auth-switch-text', HTMLElement),
  authSwitch: byId('auth-switch', HTMLButtonElement),
  notesView: byId('notes-view', HTMLElement),
  accountView: byId('account-view', HTMLElement),
  confirm: byId('confirm', HTMLDialogElement),
};

const store = createStore(reduce, initialState);
const api = new Api({
  fetch: (input, init) => fetch(input, init), t, acceptLanguage,
  token: () => store.getState().token,
});

let statusTimer = 0;
/** @param {string} message said once by the status line, which empties itself later */
function announce(message) {
  store.dispatch({ type: 'notice', message });
  clearTimeout(statusTimer);
  statusTimer = setTimeout(() => store.dispatch({ type: 'notice', message: '' }), STATUS_MS);
}

const list = createList({ store, api, t, locale, open: (id) => editor.open(id) });
const conflict = createConflict({ store, api, t, locale, editor: () => editor });
const editor = createEditor({
  store, api, t, locale, list, announce, showConflict: conflict.show,
});
const accountPage = createAccountPage({ store, api, t, locale, announce });
const live = createLive({ store, api, t, list, editor, conflict, announce });

/**
 * What belongs to no pane: which view shows (sign-in, notes or the account page), the
 * account line, the alert, the status line and the sign-in form.
 * @param {State} state
 * @param {State} [previous]
 */
function render(state, previous) {
  const signedIn = state.token !== null;
  ui.account.hidden = !signedIn;
  ui.authView.hidden = signedIn;
  ui.notesView.hidden = !signedIn || state.page !== 'notes';
  ui.accountView.hidden = !signedIn || state.page !== 'account';
  setText(ui.accountEmail, signedIn ? state.email : '');
  ui.alert.hidden = !state.alert;
  setText(ui.alertText, state.alert);
  // Set again for the same words too, which the live region then says again.
  if (!previous || state.notice !== previous.notice) ui.status.textContent = state.notice.text;
  if (!previous || state.authMode !== previous.authMode) {
    const signUp = state.authMode === 'signup';
    setText(ui.authTitle, t(signUp ? 'signUpTitle' : 'signInTitle'));
    setText(ui.authSubmit, t(signUp ? 'signUp' : 'signIn'));
    setText(ui.authSwitchText, t(signUp ? 'toSignInText' : 'toSignUpText'));
    setText(ui.authSwitch, t(signUp ? 'toSignIn' : 'toSignUp'));
    ui.authPassword.autocomplete = signUp ? 'new-password' : 'current-password';
    ui.authHint.hidden = !signUp;
  }
  setText(ui.authError, state.authError);
  ui.authSubmit.disabled = state.busy;
}

// ---------------------------------------------------------------- signing in and out

/** Shows the sign-in form, the focus where the user goes on typing. */
function showAuth() {
  ui.authPassword.value = '';
  (ui.authEmail.value ? ui.authPassword : ui.authEmail).focus();
}

/** @param {SubmitEvent} event */
async function submitAuth(event) {
  event.preventDefault();
  const state = store.getState();
  if (state.busy) return;
  store.dispatch({ type: 'authFailed', message: '' });
  store.dispatch({ type: 'busy', busy: true });
  try {
    const { email, token } = await api.authenticate(
      state.authMode, ui.authEmail.value.trim(), ui.authPassword.value);
    ui.authPassword.value = '';
    list.search.value = '';
    store.dispatch({ type: 'signedIn', email, token });
    // Follows the account's changes, and loads the list once that is under way.
    live.start();
    byId('new-note', HTMLButtonElement).focus();
  } catch (error) {
    store.dispatch({ type: 'authFailed', message: messageOf(error, t) });
    ui.authPassword.focus();
  } finally {
    store.dispatch({ type: 'busy', busy: false });
  }
}

async function signOut() {
  if (!(await editor.confirmLeave())) return;
  const token = store.getState().token;
  live.stop();
  store.dispatch({ type: 'signedOut' });
  showAuth();
  announce(t('signedOut'));
  // Revoke the token on the server too; the page has already forgotten it either way,
  // and an unreachable server cannot undo that.
  if (token) api.revoke(token).catch(() => {});
}

/** The server no longer accepts the token (it expired, or was revoked elsewhere). */
function sessionEnded() {
  live.stop();
  store.dispatch({ type: 'signedOut' });
  showAuth();
  store.dispatch({ type: 'alert', message: t('sessionEnded') });
}

// ---------------------------------------------------------------- keyboard

/** @param {EventTarget | null} target */
function isTyping(target) {
  return target instanceof HTMLElement
    && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

/** @param {KeyboardEvent} event */
function onKeyDown(event) {
  const state = store.getState();
  if (ui.confirm.open || !state.token || event.defaultPrevented) return;
  if (state.page === 'account') {
    if (event.key === 'Escape') {
      event.preventDefault();
      accountPage.close();
    }
    return;
  }
  const detail = detailOf(state);
  if (event.key === 'Escape') {
    if (event.target === list.search && list.search.value) {
      list.search.value = '';
      list.applySearch();
    } else if (detail !== 'empty') {
      event.preventDefault();
      editor.goBack();
    }
    return;
  }
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && detail === 'editor') {
    event.preventDefault();
    editor.save();
    return;
  }
  if (isTyping(event.target) || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === 'n' || event.key === 'N') {
    event.preventDefault();
    editor.newNote();
  } else if (event.key === '/') {
    event.preventDefault();
    // On a narrow screen the list is under the open note: go back to it first.
    if (detail !== 'empty' && window.matchMedia('(max-width: 699.98px)').matches) {
      editor.goBack().then(() => {
        if (!store.getState().current) list.search.focus();
      });
    } else {
      list.search.focus();
    }
  }
}

// ---------------------------------------------------------------- start

function localizePage() {
  document.documentElement.lang = locale;
  document.title = t('appName');
  for (const node of document.querySelectorAll('[data-i18n]')) {
    if (node instanceof HTMLElement) {
      node.textContent = t(/** @type {MessageKey} */ (node.dataset.i18n));
    }
  }
  for (const node of document.querySelectorAll('[data-i18n-placeholder]')) {
    if (node instanceof HTMLInputElement) {
      node.placeholder = t(/** @type {MessageKey} */ (node.dataset.i18nPlaceholder));
    }
  }
}

localizePage();
store.subscribe(render);
render(store.getState());
wireConfirmDialog();
api.addEventListener(SESSION_EXPIRED, sessionEnded);
ui.authForm.addEventListener('submit', submitAuth);
ui.authSwitch.addEventListener('click', () => {
  const mode = store.getState().authMode === 'signin' ? 'signup' : 'signin';
  store.dispatch({ type: 'authMode', mode });
  ui.authEmail.focus();
});
ui.signOut.addEventListener('click', signOut);
ui.alertClose.addEventListener('click', () => store.dispatch({ type: 'alert', message: '' }));
document.addEventListener('keydown', onKeyDown);
// Leaving with unsaved text gets the browser's own warning.
window.addEventListener('beforeunload', (event) => {
  if (editor.dirty() || store.getState().conflict) event.preventDefault();
});
showAuth();
