// MyNotes in the browser: a small master–detail app over the REST API v1.
//
// Rules this file keeps:
// - Note text only ever reaches the page through textContent (the CSP also enforces
//   Trusted Types, so an HTML sink would throw rather than render).
// - The access token lives in this module's memory only: no cookie, no storage. A reload
//   asks to sign in again; in exchange there is nothing for CSRF or a stolen-storage
//   attack to use (docs/WEB.md).
// - A save or delete carries the note's ETag in If-Match, so a stale tab gets 412 and the
//   user chooses between the versions; nothing is overwritten silently.
'use strict';

const PAGE_SIZE = 30;
const SEARCH_DELAY_MS = 250;
const STATUS_MS = 4000;

const STRINGS = {
  en: {
    appName: 'MyNotes',
    skip: 'Skip to content',
    signedInAs: 'Signed in as',
    signOut: 'Sign out',
    dismiss: 'Dismiss',
    signInTitle: 'Sign in',
    signUpTitle: 'Create an account',
    email: 'Email',
    password: 'Password',
    passwordHint: 'At least 8 characters.',
    signIn: 'Sign in',
    signUp: 'Create account',
    toSignUpText: 'New to MyNotes?',
    toSignUp: 'Create an account',
    toSignInText: 'Already have an account?',
    toSignIn: 'Sign in',
    notes: 'Notes',
    search: 'Search notes',
    searchPlaceholder: 'Search (press /)',
    newNote: 'New note',
    loading: 'Loading…',
    empty: 'No notes yet. Press N or choose “New note” to write one.',
    noMatches: 'No notes contain “{q}”.',
    loadMore: 'Load more',
    retry: 'Try again',
    selectNote: 'Select a note, or press N to write a new one.',
    back: 'Back',
    newNoteTitle: 'New note',
    editNoteTitle: 'Note',
    content: 'Note',
    date: 'Date',
    saveHint: 'Ctrl+Enter or ⌘+Enter saves. Esc goes back.',
    save: 'Save',
    delete: 'Delete',
    cancel: 'Cancel',
    saved: 'Saved.',
    deleted: 'Note deleted.',
    signedOut: 'You are signed out.',
    deleteTitle: 'Delete this note?',
    deleteText: '“{preview}” will be deleted. This cannot be undone.',
    discardTitle: 'Discard your changes?',
    discardText: 'Your changes to this note have not been saved.',
    discard: 'Discard',
    conflictTitle: 'This note was changed in another window',
    conflictText: 'Both versions are below. Choose what to keep — nothing is lost until you do.',
    conflictGoneTitle: 'This note was deleted in another window',
    conflictGoneText: 'Your version is below. Save it as a new note, or discard it.',
    theirs: 'Saved version',
    theirsGone: 'Deleted',
    mine: 'Your version',
    keepMine: 'Keep my version',
    keepTheirs: 'Keep the saved version',
    saveCopy: 'Save mine as a new note',
    discardMine: 'Discard my version',
    changedBeforeDelete: 'This note was changed in another window; this is the latest version. Delete it again if you still want to.',
    goneElsewhere: 'That note no longer exists; it was deleted elsewhere.',
    networkError: 'Cannot reach the server. Check your connection and try again.',
    sessionEnded: 'Your session has ended. Please sign in again.',
    retryAfter: 'Try again in {n} seconds.',
    httpError: 'The server answered {status}.',
  },
  zh: {
    appName: '备忘录',
    skip: '跳到内容',
    signedInAs: '已登录：',
    signOut: '退出登录',
    dismiss: '关闭',
    signInTitle: '登录',
    signUpTitle: '注册账户',
    email: '电子邮件',
    password: '密码',
    passwordHint: '至少 8 个字符。',
    signIn: '登录',
    signUp: '注册',
    toSignUpText: '还没有账户？',
    toSignUp: '注册一个',
    toSignInText: '已有账户？',
    toSignIn: '登录',
    notes: '备忘录',
    search: '搜索备忘录',
    searchPlaceholder: '搜索（按 /）',
    newNote: '新建',
    loading: '正在加载…',
    empty: '还没有备忘录。按 N 或点“新建”来写一条。',
    noMatches: '没有包含“{q}”的备忘录。',
    loadMore: '加载更多',
    retry: '重试',
    selectNote: '选择一条备忘录，或按 N 新建。',
    back: '返回',
    newNoteTitle: '新备忘录',
    editNoteTitle: '备忘录',
    content: '内容',
    date: '日期',
    saveHint: '按 Ctrl+Enter 或 ⌘+Enter 保存，按 Esc 返回。',
    save: '保存',
    delete: '删除',
    cancel: '取消',
    saved: '已保存。',
    deleted: '已删除。',
    signedOut: '你已退出登录。',
    deleteTitle: '删除这条备忘录？',
    deleteText: '“{preview}”将被删除，且无法恢复。',
    discardTitle: '放弃修改？',
    discardText: '你对这条备忘录的修改尚未保存。',
    discard: '放弃',
    conflictTitle: '这条备忘录已在其他窗口中被修改',
    conflictText: '两个版本都在下面。请选择保留哪一个——在你选择之前不会丢失任何内容。',
    conflictGoneTitle: '这条备忘录已在其他窗口中被删除',
    conflictGoneText: '你的版本在下面。可以把它另存为新备忘录，或者放弃。',
    theirs: '已保存的版本',
    theirsGone: '已删除',
    mine: '你的版本',
    keepMine: '保留我的版本',
    keepTheirs: '保留已保存的版本',
    saveCopy: '将我的版本另存为新备忘录',
    discardMine: '放弃我的版本',
    changedBeforeDelete: '这条备忘录已在其他窗口中被修改，这里显示的是最新版本。如仍要删除，请再删除一次。',
    goneElsewhere: '那条备忘录已不存在，它已在别处被删除。',
    networkError: '无法连接服务器。请检查网络后重试。',
    sessionEnded: '登录已失效，请重新登录。',
    retryAfter: '请在 {n} 秒后重试。',
    httpError: '服务器返回了 {status}。',
  },
};

/** The browser's first preference among the languages the app speaks. */
function pickLanguage() {
  const preferred = navigator.languages?.length ? navigator.languages : [navigator.language];
  for (const tag of preferred) {
    const lower = String(tag).toLowerCase();
    if (lower.startsWith('zh')) return 'zh';
    if (lower.startsWith('en')) return 'en';
  }
  return 'en';
}

const LANG = pickLanguage();
const LOCALE = LANG === 'zh' ? 'zh-CN' : 'en';
// Sent with every request so the server's problem details match the page's language.
const ACCEPT_LANGUAGE = LANG === 'zh' ? 'zh-CN, zh;q=0.9' : 'en';

function t(key, values = {}) {
  const text = STRINGS[LANG][key] ?? STRINGS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ''));
}

const $ = (id) => {
  const element = document.getElementById(id);
  if (!element) throw new Error(`missing #${id}`);
  return element;
};

const ui = {
  account: $('account'), accountEmail: $('account-email'), signOut: $('sign-out'),
  alert: $('alert'), alertText: $('alert-text'), alertClose: $('alert-close'), status: $('status'),
  main: $('main'),
  authView: $('auth-view'), authForm: $('auth-form'), authTitle: $('auth-title'),
  authEmail: $('auth-email'), authPassword: $('auth-password'), authHint: $('auth-hint'),
  authError: $('auth-error'), authSubmit: $('auth-submit'),
  authSwitchText: $('auth-switch-text'), authSwitch: $('auth-switch'),
  notesView: $('notes-view'), searchForm: $('search-form'), search: $('search'),
  newNote: $('new-note'), noteList: $('note-list'), listMessage: $('list-message'),
  listRetry: $('list-retry'), loadMore: $('load-more'),
  detailEmpty: $('detail-empty'), editor: $('editor'), back: $('back'),
  detailTitle: $('detail-title'), content: $('note-content'), date: $('note-date'),
  editorError: $('editor-error'), save: $('save'), remove: $('delete'),
  conflict: $('conflict'), conflictTitle: $('conflict-title'), conflictText: $('conflict-text'),
  theirsDate: $('theirs-date'), theirsContent: $('theirs-content'),
  mineDate: $('mine-date'), mineContent: $('mine-content'),
  keepMine: $('keep-mine'), keepTheirs: $('keep-theirs'), saveCopy: $('save-copy'),
  confirm: $('confirm'), confirmTitle: $('confirm-title'), confirmText: $('confirm-text'),
  confirmOk: $('confirm-ok'), confirmCancel: $('confirm-cancel'),
};

const state = {
  token: null,
  email: '',
  authMode: 'signin',
  list: { notes: [], cursor: null, hasMore: false, loading: false, error: '', query: '', generation: 0 },
  // The note in the detail pane: {id (null when new), etag, content, date, dateInput}.
  current: null,
  // While a 412 is being resolved: {id, mine: {content, date}, theirs, theirsEtag}.
  conflict: null,
  busy: false,
};

// ---------------------------------------------------------------- the API

class ApiError extends Error {
  constructor(status, message, problem = null) {
    super(message);
    this.status = status;
    this.problem = problem;
  }
}

/**
 * One request to the REST API. Resolves to {status, data, etag}; rejects with an ApiError
 * whose message is the server's localized `detail` when it sent one.
 */
async function api(method, path, { body, etag, signIn = false } = {}) {
  const headers = { Accept: 'application/json', 'Accept-Language': ACCEPT_LANGUAGE };
  if (state.token && !signIn) headers.Authorization = `Bearer ${state.token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (etag) headers['If-Match'] = etag;
  let response;
  try {
    response = await fetch(path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store', credentials: 'omit', redirect: 'error',
    });
  } catch {
    throw new ApiError(0, t('networkError'));
  }
  let data = null;
  if (/json/.test(response.headers.get('Content-Type') ?? '')) {
    try { data = await response.json(); } catch { data = null; }
  }
  if (!response.ok) {
    let message = typeof data?.detail === 'string' && data.detail ? data.detail
      : typeof data?.title === 'string' && data.title ? data.title
        : t('httpError', { status: response.status });
    const retryAfter = Number.parseInt(response.headers.get('Retry-After') ?? '', 10);
    if (response.status === 429 && Number.isFinite(retryAfter)) {
      message += ' ' + t('retryAfter', { n: retryAfter });
    }
    if (response.status === 401 && !signIn && state.token) sessionEnded();
    throw new ApiError(response.status, message, data);
  }
  return { status: response.status, data, etag: response.headers.get('ETag') };
}

const messageOf = (error) => (error instanceof ApiError ? error.message : t('networkError'));

// ---------------------------------------------------------------- small helpers

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;
const pad = (n) => String(n).padStart(2, '0');

/** A note's date as the user reads it, in the page's language. */
function formatNoteDate(text) {
  const match = DATE_PATTERN.exec(text ?? '');
  if (!match) return text ?? '';
  const [, y, mo, d, h, mi, s] = match;
  const date = new Date(+y, +mo - 1, +d, +(h ?? 0), +(mi ?? 0), +(s ?? 0));
  const options = h === undefined ? { dateStyle: 'medium' } : { dateStyle: 'medium', timeStyle: 'short' };
  return new Intl.DateTimeFormat(LOCALE, options).format(date);
}

/** `yyyy-MM-dd[ HH:mm[:ss]]` → the value a datetime-local input takes. */
function toInputValue(text) {
  const match = DATE_PATTERN.exec(text ?? '');
  if (!match) return '';
  const [, y, mo, d, h = '00', mi = '00', s = '00'] = match;
  return `${y}-${mo}-${d}T${h}:${mi}:${s}`;
}

/** A datetime-local value → `yyyy-MM-dd HH:mm:ss`, one of the API's date forms. */
function fromInputValue(value) {
  const [day, time = ''] = value.split('T');
  const [h = '00', mi = '00', s = '00'] = time.split(':');
  return `${day} ${h}:${mi}:${s.slice(0, 2)}`;
}

function localNow() {
  const n = new Date();
  return `${n.getFullYear()}-${pad(n.getMonth() + 1)}-${pad(n.getDate())} `
    + `${pad(n.getHours())}:${pad(n.getMinutes())}:${pad(n.getSeconds())}`;
}

/** The first `length` UTF-16 units of `text`, never ending in half an emoji. */
function truncate(text, length) {
  if (text.length <= length) return text;
  const cut = text.slice(0, length);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

function preview(content) {
  const line = content.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${truncate(line, 60)}…` : line;
}

let statusTimer = 0;
function announce(message) {
  ui.status.textContent = message;
  clearTimeout(statusTimer);
  statusTimer = setTimeout(() => { ui.status.textContent = ''; }, STATUS_MS);
}

function showAlert(message) {
  ui.alertText.textContent = message;
  ui.alert.hidden = false;
}

function hideAlert() {
  ui.alert.hidden = true;
  ui.alertText.textContent = '';
}

function setBusy(busy, ...buttons) {
  state.busy = busy;
  for (const button of buttons) button.disabled = busy;
}

/** Asks with the modal dialog; resolves true only when the user confirms. */
function confirmDialog({ title, text, ok }) {
  ui.confirmTitle.textContent = title;
  ui.confirmText.textContent = text;
  ui.confirmOk.textContent = ok;
  ui.confirm.returnValue = '';
  return new Promise((resolve) => {
    ui.confirm.addEventListener('close', () => resolve(ui.confirm.returnValue === 'ok'), { once: true });
    ui.confirm.showModal();
    // The safe choice has the focus, so Enter alone never destroys anything.
    ui.confirmCancel.focus();
  });
}

// ---------------------------------------------------------------- localization

function localizePage() {
  document.documentElement.lang = LOCALE;
  document.title = t('appName');
  for (const node of document.querySelectorAll('[data-i18n]')) node.textContent = t(node.dataset.i18n);
  for (const node of document.querySelectorAll('[data-i18n-placeholder]')) {
    node.placeholder = t(node.dataset.i18nPlaceholder);
  }
}

// ---------------------------------------------------------------- signing in and out

function setAuthMode(mode) {
  state.authMode = mode;
  const signUp = mode === 'signup';
  ui.authTitle.textContent = t(signUp ? 'signUpTitle' : 'signInTitle');
  ui.authSubmit.textContent = t(signUp ? 'signUp' : 'signIn');
  ui.authSwitchText.textContent = t(signUp ? 'toSignInText' : 'toSignUpText');
  ui.authSwitch.textContent = t(signUp ? 'toSignIn' : 'toSignUp');
  ui.authPassword.autocomplete = signUp ? 'new-password' : 'current-password';
  ui.authHint.hidden = !signUp;
  ui.authError.textContent = '';
}

function showAuth() {
  ui.notesView.hidden = true;
  ui.account.hidden = true;
  ui.authView.hidden = false;
  ui.authPassword.value = '';
  (ui.authEmail.value ? ui.authPassword : ui.authEmail).focus();
}

async function submitAuth(event) {
  event.preventDefault();
  if (state.busy) return;
  const email = ui.authEmail.value.trim();
  const password = ui.authPassword.value;
  const signUp = state.authMode === 'signup';
  ui.authError.textContent = '';
  setBusy(true, ui.authSubmit);
  try {
    const { data } = await api('POST', signUp ? '/api/v1/accounts' : '/api/v1/sessions', {
      body: { email, password }, signIn: true,
    });
    ui.authPassword.value = '';
    signedIn(typeof data?.email === 'string' ? data.email : email, data.token);
  } catch (error) {
    ui.authError.textContent = messageOf(error);
    ui.authPassword.focus();
  } finally {
    setBusy(false, ui.authSubmit);
  }
}

function signedIn(email, token) {
  state.token = token;
  state.email = email;
  hideAlert();
  ui.accountEmail.textContent = email;
  ui.account.hidden = false;
  ui.authView.hidden = true;
  ui.notesView.hidden = false;
  ui.search.value = '';
  state.list.query = '';
  closeDetail({ focus: false });
  resetList();
  ui.newNote.focus();
}

/** Forgets everything the signed-in user saw, so nothing of theirs stays in the page. */
function forgetSession() {
  state.token = null;
  state.current = null;
  state.conflict = null;
  state.list.generation += 1;
  state.list.notes = [];
  ui.noteList.replaceChildren();
  ui.content.value = '';
  ui.theirsContent.textContent = '';
  ui.mineContent.textContent = '';
  ui.accountEmail.textContent = '';
  closeDetail({ focus: false });
}

async function signOut() {
  if (!(await confirmLeave())) return;
  const token = state.token;
  forgetSession();
  setAuthMode('signin');
  showAuth();
  announce(t('signedOut'));
  // Revoke the token on the server too; the page has already forgotten it either way.
  try {
    await fetch('/api/v1/sessions/current', {
      method: 'DELETE', headers: { Authorization: `Bearer ${token}` }, credentials: 'omit',
    });
  } catch { /* already signed out here; an unreachable server cannot undo that */ }
}

function sessionEnded() {
  forgetSession();
  setAuthMode('signin');
  showAuth();
  showAlert(t('sessionEnded'));
}

// ---------------------------------------------------------------- the list

function noteItem(note) {
  const item = element('li');
  const button = element('button', 'note-item');
  button.type = 'button';
  button.dataset.id = String(note.id);
  fillNoteItem(button, note);
  item.append(button);
  return item;
}

function fillNoteItem(button, note) {
  const title = element('span', 'note-title', truncate(note.content, 300));
  const date = element('time', 'note-date', formatNoteDate(note.date));
  date.dateTime = toInputValue(note.date) || note.date;
  button.replaceChildren(title, date);
  button.setAttribute('aria-current', String(state.current?.id === note.id));
}

function itemButton(id) {
  return ui.noteList.querySelector(`button[data-id="${CSS.escape(String(id))}"]`);
}

function renderListState() {
  const { loading, error, notes, hasMore, query } = state.list;
  ui.noteList.setAttribute('aria-busy', String(loading));
  let message = '';
  if (error) message = error;
  else if (loading) message = t('loading');
  else if (notes.length === 0) message = query ? t('noMatches', { q: query }) : t('empty');
  ui.listMessage.textContent = message;
  ui.listMessage.classList.toggle('is-error', Boolean(error));
  ui.listRetry.hidden = !error;
  ui.loadMore.hidden = loading || Boolean(error) || !hasMore;
}

function resetList() {
  const list = state.list;
  list.generation += 1;
  list.notes = [];
  list.cursor = null;
  list.hasMore = true;
  list.error = '';
  list.loading = false;
  ui.noteList.replaceChildren();
  loadMore();
}

/** Fetches the next page over the cursor; a newer reset or search makes older answers moot. */
async function loadMore() {
  const list = state.list;
  if (list.loading || !list.hasMore || !state.token) return;
  const generation = list.generation;
  list.loading = true;
  list.error = '';
  renderListState();
  const parameters = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (list.cursor) parameters.set('cursor', list.cursor);
  if (list.query) parameters.set('q', list.query);
  try {
    const { data } = await api('GET', `/api/v1/notes?${parameters}`);
    if (generation !== list.generation) return;
    const known = new Set(list.notes.map((note) => note.id));
    const fresh = data.notes.filter((note) => !known.has(note.id));
    list.notes.push(...fresh);
    ui.noteList.append(...fresh.map(noteItem));
    list.cursor = data.nextCursor ?? null;
    list.hasMore = Boolean(list.cursor);
  } catch (error) {
    if (generation !== list.generation) return;
    list.error = messageOf(error);
  } finally {
    if (generation === list.generation) {
      list.loading = false;
      renderListState();
    }
  }
}

function updateNoteItem(note) {
  const index = state.list.notes.findIndex((known) => known.id === note.id);
  if (index >= 0) state.list.notes[index] = note;
  const button = itemButton(note.id);
  if (button) fillNoteItem(button, note);
}

function removeNoteItem(id) {
  state.list.notes = state.list.notes.filter((note) => note.id !== id);
  itemButton(id)?.parentElement?.remove();
  renderListState();
}

function markSelected(id) {
  for (const button of ui.noteList.querySelectorAll('.note-item')) {
    button.setAttribute('aria-current', String(button.dataset.id === String(id)));
  }
}

let searchTimer = 0;
function searchChanged() {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(applySearch, SEARCH_DELAY_MS);
}

function applySearch() {
  clearTimeout(searchTimer);
  const query = ui.search.value.trim();
  if (query === state.list.query) return;
  state.list.query = query;
  resetList();
}

// ---------------------------------------------------------------- the detail pane

// An open detail is a history entry, so the browser's (or phone's) Back button closes it
// as the app's own does — instead of leaving the page, and with it the in-memory token.
let detailInHistory = false;

function showDetail(which) {
  ui.detailEmpty.hidden = true;
  ui.editor.hidden = which !== 'editor';
  ui.conflict.hidden = which !== 'conflict';
  ui.notesView.classList.add('detail-open');
  if (!detailInHistory) {
    history.pushState({ detail: true }, '');
    detailInHistory = true;
  }
}

async function onPopState() {
  if (!detailInHistory) return; // the history.back() of closeDetail itself
  detailInHistory = false;
  if (await confirmLeave()) {
    closeDetail();
  } else {
    history.pushState({ detail: true }, '');
    detailInHistory = true;
  }
}

function closeDetail({ focus = true } = {}) {
  const id = state.current?.id;
  state.current = null;
  state.conflict = null;
  ui.editor.hidden = true;
  ui.conflict.hidden = true;
  ui.detailEmpty.hidden = false;
  ui.editorError.textContent = '';
  ui.notesView.classList.remove('detail-open');
  markSelected(null);
  if (detailInHistory) {
    detailInHistory = false;
    history.back();
  }
  if (focus) (id != null && itemButton(id) || ui.newNote).focus();
}

/** Puts a note (as the server has it) in the editor. */
function setCurrent(note, etag) {
  ui.content.value = note.content;
  ui.date.value = toInputValue(note.date);
  // Read back: the input normalizes (drops :00 seconds), and dirtiness compares with that.
  state.current = { id: note.id, etag, content: note.content, date: note.date, dateInput: ui.date.value };
  // The heading is the note's date, as in the seed app's detail view.
  ui.detailTitle.textContent = formatNoteDate(note.date) || t('editNoteTitle');
  ui.remove.hidden = false;
  markSelected(note.id);
}

function isDirty() {
  const current = state.current;
  if (!current || ui.editor.hidden) return false;
  return ui.content.value !== current.content || ui.date.value !== current.dateInput;
}

/** Whether leaving the open note is fine: unsaved text is only dropped when the user says so. */
async function confirmLeave() {
  if (!state.conflict && !isDirty()) return true;
  return confirmDialog({ title: t('discardTitle'), text: t('discardText'), ok: t('discard') });
}

async function openNote(id) {
  if (state.current?.id === id && !ui.editor.hidden) {
    showDetail('editor');
    ui.content.focus();
    return;
  }
  if (!(await confirmLeave())) return;
  const listed = state.list.notes.find((note) => note.id === id);
  if (!listed) return;
  state.conflict = null;
  ui.editorError.textContent = '';
  setCurrent(listed, null);
  showDetail('editor');
  // The list has no validators: fetch the note for its ETag (and its latest text) before
  // anything can be saved, so a save always states which version it replaces.
  ui.content.readOnly = true;
  ui.save.disabled = true;
  ui.editor.setAttribute('aria-busy', 'true');
  ui.content.focus();
  try {
    const { data, etag } = await api('GET', `/api/v1/notes/${id}`);
    if (state.current?.id !== id) return;
    setCurrent(data, etag);
    updateNoteItem(data);
  } catch (error) {
    if (state.current?.id !== id) return;
    if (error.status === 404) {
      removeNoteItem(id);
      closeDetail();
      showAlert(t('goneElsewhere'));
    } else {
      ui.editorError.textContent = messageOf(error);
    }
  } finally {
    ui.content.readOnly = false;
    ui.save.disabled = false;
    ui.editor.removeAttribute('aria-busy');
  }
}

async function newNote() {
  if (!state.token || !(await confirmLeave())) return;
  state.conflict = null;
  ui.editorError.textContent = '';
  ui.content.value = '';
  ui.date.value = toInputValue(localNow());
  state.current = { id: null, etag: null, content: '', date: null, dateInput: ui.date.value };
  ui.detailTitle.textContent = t('newNoteTitle');
  ui.remove.hidden = true;
  markSelected(null);
  showDetail('editor');
  ui.content.focus();
}

/** The date to send: the note's own text when the field is untouched, so a date-only
 *  note stays date-only. */
function dateForSave(current) {
  if (ui.date.value === current.dateInput && current.date) return current.date;
  if (!ui.date.value) return current.date ?? undefined;
  return fromInputValue(ui.date.value);
}

async function save() {
  const current = state.current;
  if (!current || state.busy || ui.content.readOnly) return;
  const mine = { content: ui.content.value, date: dateForSave(current) };
  ui.editorError.textContent = '';
  setBusy(true, ui.save, ui.remove);
  try {
    await write(current, mine);
  } catch (error) {
    if (state.current !== current) return;
    if (current.id != null && (error.status === 412 || error.status === 404)) {
      await showConflict(current.id, mine);
    } else {
      ui.editorError.textContent = messageOf(error);
      ui.content.focus();
    }
  } finally {
    setBusy(false, ui.save, ui.remove);
  }
}

/** Creates or replaces `current` with `mine`; PUT carries If-Match. */
async function write(current, mine) {
  if (current.id == null) {
    const body = { content: mine.content };
    if (mine.date) body.date = mine.date;
    const { data, etag } = await api('POST', '/api/v1/notes', { body });
    saved(current, data, etag, true);
  } else {
    const { data, etag } = await api('PUT', `/api/v1/notes/${current.id}`, {
      body: mine, etag: current.etag,
    });
    saved(current, data, etag, data.date !== current.date);
  }
}

function saved(previous, note, etag, reorder) {
  announce(t('saved'));
  if (state.current !== previous && state.current?.id !== note.id) {
    if (reorder) resetList(); else updateNoteItem(note);
    return;
  }
  setCurrent(note, etag);
  state.conflict = null;
  showDetail('editor');
  // A new note, or one whose date moved, has a new place in the order: reload from the
  // top. Otherwise update the row where it is, keeping the scroll position.
  if (reorder) resetList(); else updateNoteItem(note);
}

async function deleteCurrent() {
  const current = state.current;
  if (!current || current.id == null || state.busy || ui.content.readOnly) return;
  const ok = await confirmDialog({
    title: t('deleteTitle'), text: t('deleteText', { preview: preview(current.content) }), ok: t('delete'),
  });
  if (!ok || state.current !== current) return;
  setBusy(true, ui.save, ui.remove);
  try {
    await api('DELETE', `/api/v1/notes/${current.id}`, { etag: current.etag });
    closeDetail({ focus: false });
    focusAfterRemoving(current.id);
    removeNoteItem(current.id);
    announce(t('deleted'));
  } catch (error) {
    if (error.status === 404) {
      closeDetail({ focus: false });
      focusAfterRemoving(current.id);
      removeNoteItem(current.id);
      showAlert(t('goneElsewhere'));
    } else if (error.status === 412) {
      // Changed elsewhere since it was opened: show what would be deleted, then let the
      // user decide again.
      await reloadCurrent(current);
      ui.editorError.textContent = t('changedBeforeDelete');
    } else {
      ui.editorError.textContent = messageOf(error);
    }
  } finally {
    setBusy(false, ui.save, ui.remove);
  }
}

function focusAfterRemoving(id) {
  const item = itemButton(id)?.parentElement;
  const next = item?.nextElementSibling ?? item?.previousElementSibling;
  (next?.querySelector('button') ?? ui.newNote).focus();
}

async function reloadCurrent(current) {
  try {
    const { data, etag } = await api('GET', `/api/v1/notes/${current.id}`);
    if (state.current !== current) return;
    setCurrent(data, etag);
    updateNoteItem(data);
  } catch (error) {
    ui.editorError.textContent = messageOf(error);
  }
}

// ---------------------------------------------------------------- conflicts (412)

/** Shows the saved version beside the user's, after a save was refused as stale. */
async function showConflict(id, mine) {
  let theirs = null;
  let theirsEtag = null;
  try {
    const response = await api('GET', `/api/v1/notes/${id}`);
    theirs = response.data;
    theirsEtag = response.etag;
  } catch (error) {
    if (error.status !== 404) {
      ui.editorError.textContent = messageOf(error);
      return;
    }
  }
  state.conflict = { id, mine, theirs, theirsEtag };
  ui.conflictTitle.textContent = t(theirs ? 'conflictTitle' : 'conflictGoneTitle');
  ui.conflictText.textContent = t(theirs ? 'conflictText' : 'conflictGoneText');
  ui.theirsDate.textContent = theirs ? formatNoteDate(theirs.date) : '';
  ui.theirsContent.textContent = theirs ? theirs.content : t('theirsGone');
  ui.mineDate.textContent = mine.date ? formatNoteDate(mine.date) : '';
  ui.mineContent.textContent = mine.content;
  ui.keepMine.hidden = !theirs;
  ui.keepTheirs.textContent = t(theirs ? 'keepTheirs' : 'discardMine');
  if (theirs) updateNoteItem(theirs); else removeNoteItem(id);
  showDetail('conflict');
  ui.conflictTitle.focus();
}

async function resolveConflict(choice) {
  const conflict = state.conflict;
  if (!conflict || state.busy) return;
  const buttons = [ui.keepMine, ui.keepTheirs, ui.saveCopy];
  setBusy(true, ...buttons);
  try {
    if (choice === 'theirs') {
      state.conflict = null;
      if (conflict.theirs) {
        setCurrent(conflict.theirs, conflict.theirsEtag);
        showDetail('editor');
        ui.content.focus();
      } else {
        closeDetail();
      }
    } else if (choice === 'mine') {
      // Replace exactly the version the user has just seen; if it moved again, ask again.
      const current = { ...state.current, id: conflict.id, etag: conflict.theirsEtag, date: conflict.theirs.date };
      state.current = current;
      await write(current, conflict.mine);
      ui.content.focus();
    } else {
      const current = { id: null, etag: null, content: '', date: null, dateInput: '' };
      state.current = current;
      await write(current, conflict.mine);
      ui.content.focus();
    }
  } catch (error) {
    if (choice === 'mine' && (error.status === 412 || error.status === 404)) {
      await showConflict(conflict.id, conflict.mine);
    } else {
      state.conflict = conflict;
      ui.conflictText.textContent = messageOf(error);
    }
  } finally {
    setBusy(false, ...buttons);
  }
}

// ---------------------------------------------------------------- keyboard

function isTyping(target) {
  return target instanceof HTMLElement
    && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

async function goBack() {
  if (!state.current && !state.conflict) return;
  if (!(await confirmLeave())) return;
  closeDetail();
}

function onKeyDown(event) {
  if (ui.confirm.open || ui.notesView.hidden || event.defaultPrevented) return;
  if (event.key === 'Escape') {
    if (event.target === ui.search && ui.search.value) {
      ui.search.value = '';
      applySearch();
    } else if (state.current || state.conflict) {
      event.preventDefault();
      goBack();
    }
    return;
  }
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && !ui.editor.hidden) {
    event.preventDefault();
    save();
    return;
  }
  if (isTyping(event.target) || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === 'n' || event.key === 'N') {
    event.preventDefault();
    newNote();
  } else if (event.key === '/') {
    event.preventDefault();
    if (ui.notesView.classList.contains('detail-open') && window.matchMedia('(max-width: 699.98px)').matches) {
      goBack().then(() => { if (!state.current) ui.search.focus(); });
    } else {
      ui.search.focus();
    }
  }
}

/** Up and down arrows walk the list, as in a native table view. */
function onListKeyDown(event) {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
  const buttons = [...ui.noteList.querySelectorAll('.note-item')];
  const index = buttons.indexOf(document.activeElement);
  if (index < 0) return;
  event.preventDefault();
  const next = buttons[index + (event.key === 'ArrowDown' ? 1 : -1)];
  if (next) next.focus();
  else if (event.key === 'ArrowDown') loadMore();
}

// ---------------------------------------------------------------- wiring

function start() {
  localizePage();
  setAuthMode('signin');
  ui.authForm.addEventListener('submit', submitAuth);
  ui.authSwitch.addEventListener('click', () => {
    setAuthMode(state.authMode === 'signin' ? 'signup' : 'signin');
    ui.authEmail.focus();
  });
  ui.signOut.addEventListener('click', signOut);
  ui.alertClose.addEventListener('click', hideAlert);
  ui.searchForm.addEventListener('submit', (event) => { event.preventDefault(); applySearch(); });
  ui.search.addEventListener('input', searchChanged);
  ui.newNote.addEventListener('click', newNote);
  ui.noteList.addEventListener('click', (event) => {
    const button = event.target.closest('.note-item');
    if (button) openNote(Number(button.dataset.id));
  });
  ui.noteList.addEventListener('keydown', onListKeyDown);
  ui.listRetry.addEventListener('click', () => { state.list.error = ''; loadMore(); });
  ui.loadMore.addEventListener('click', loadMore);
  ui.editor.addEventListener('submit', (event) => { event.preventDefault(); save(); });
  ui.back.addEventListener('click', goBack);
  ui.remove.addEventListener('click', deleteCurrent);
  ui.keepMine.addEventListener('click', () => resolveConflict('mine'));
  ui.keepTheirs.addEventListener('click', () => resolveConflict('theirs'));
  ui.saveCopy.addEventListener('click', () => resolveConflict('copy'));
  ui.confirmOk.addEventListener('click', () => ui.confirm.close('ok'));
  ui.confirmCancel.addEventListener('click', () => ui.confirm.close('cancel'));
  document.addEventListener('keydown', onKeyDown);
  window.addEventListener('popstate', onPopState);
  // Infinite scroll: the "Load more" button loads itself when it scrolls into view, and
  // stays a plain button for keyboards and for browsers that scroll differently.
  new IntersectionObserver((entries) => {
    if (entries.some((entry) => entry.isIntersecting)) loadMore();
  }).observe(ui.loadMore);
  // Leaving with unsaved text gets the browser's own warning.
  window.addEventListener('beforeunload', (event) => {
    if (isDirty() || state.conflict) event.preventDefault();
  });
  showAuth();
}

start();
