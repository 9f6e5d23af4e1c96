// @ts-check
// The account page: change the password (the current one required; the server then signs
// out every other session) and see where the account is signed in, signing out any one
// session or all the others. Its state lives in the store (`page`, `account`); this
// module renders it and sends what the user asks for.

import { messageOf } from './api.js';
import { byId, element, setText } from './dom.js';

/** @typedef {import('./api.js').Api} Api */
/** @typedef {import('./i18n.js').Translate} Translate */
/** @typedef {import('./store.js').State} State */
/** @typedef {import('./store.js').Action} Action */
/** @typedef {import('./store.js').SessionInfo} SessionInfo */
/** @typedef {import('./store.js').Store<State, Action>} Store */

/**
 * @param {{
 *   store: Store, api: Api, t: Translate, locale: string,
 *   announce: (message: string) => void
 * }} options
 */
export function createAccountPage({ store, api, t, locale, announce }) {
  const ui = {
    view: byId('account-view', HTMLElement),
    title: byId('account-title', HTMLElement),
    back: byId('account-back', HTMLButtonElement),
    open: byId('account-open', HTMLButtonElement),
    form: byId('password-form', HTMLFormElement),
    current: byId('current-password', HTMLInputElement),
    next: byId('new-password', HTMLInputElement),
    error: byId('password-error', HTMLElement),
    submit: byId('password-submit', HTMLButtonElement),
    message: byId('sessions-message', HTMLElement),
    list: byId('session-list', HTMLUListElement),
    revokeOthers: byId('revoke-others', HTMLButtonElement),
  };
  const when = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  /** @param {string} stamp */
  const format = (stamp) => when.format(new Date(stamp));

  async function loadSessions() {
    store.dispatch({ type: 'sessionsLoading' });
    try {
      store.dispatch({ type: 'sessionsLoaded', sessions: await api.sessions() });
    } catch (error) {
      store.dispatch({ type: 'sessionsFailed', message: messageOf(error, t) });
    }
  }

  /** Opens the page, its title focused, and loads the sessions afresh. */
  function show() {
    store.dispatch({ type: 'page', page: 'account' });
    ui.title.focus();
    loadSessions();
  }

  function close() {
    ui.current.value = '';
    ui.next.value = '';
    setText(ui.error, '');
    store.dispatch({ type: 'page', page: 'notes' });
    ui.open.focus();
  }

  /** @param {SubmitEvent} event */
  async function changePassword(event) {
    event.preventDefault();
    if (ui.submit.disabled) return;
    setText(ui.error, '');
    ui.submit.disabled = true;
    try {
      await api.changePassword(ui.current.value, ui.next.value);
      ui.current.value = '';
      ui.next.value = '';
      announce(t('passwordChanged'));
      loadSessions();
    } catch (error) {
      setText(ui.error, messageOf(error, t));
      ui.current.focus();
    } finally {
      ui.submit.disabled = false;
    }
  }

  /** @param {SessionInfo} session */
  async function revoke(session) {
    try {
      await api.revokeSession(session.id);
      store.dispatch({ type: 'sessionRevoked', id: session.id });
      announce(t('sessionRevoked'));
      ui.revokeOthers.focus();
    } catch (error) {
      store.dispatch({ type: 'sessionsFailed', message: messageOf(error, t) });
    }
  }

  async function revokeOthers() {
    try {
      const count = await api.revokeOtherSessions();
      announce(t('othersRevoked', { n: count }));
      loadSessions();
    } catch (error) {
      store.dispatch({ type: 'sessionsFailed', message: messageOf(error, t) });
    }
  }

  /** @param {SessionInfo} session */
  function row(session) {
    const item = element('li', 'session-item');
    item.dataset.session = session.id;
    const text = element('span', 'session-text');
    const name = session.current ? t('thisSession')
      : session.kind === 'accessKey' ? t('accessKey') : t('otherSession');
    text.append(
      element('span', 'session-name', name),
      element('span', 'session-times', t('sessionTimes', {
        created: format(session.createdAt), used: format(session.lastUsedAt),
      })));
    item.append(text);
    if (!session.current) {
      const button = element('button', 'session-revoke', t('revokeSession'));
      button.type = 'button';
      button.setAttribute('aria-label', t('revokeSessionLabel', { created: format(session.createdAt) }));
      button.addEventListener('click', () => revoke(session));
      item.append(button);
    }
    return item;
  }

  /**
   * @param {State} state
   * @param {State} [previous]
   */
  function render(state, previous) {
    const account = state.account;
    if (previous && account === previous.account) return;
    ui.list.setAttribute('aria-busy', String(account.loading));
    ui.list.replaceChildren(...account.sessions.map(row));
    setText(ui.message, account.error || (account.loading ? t('loading') : ''));
    ui.message.classList.toggle('is-error', Boolean(account.error));
    ui.revokeOthers.disabled = !account.sessions.some((session) => !session.current);
  }

  ui.open.addEventListener('click', show);
  ui.back.addEventListener('click', close);
  ui.form.addEventListener('submit', changePassword);
  ui.revokeOthers.addEventListener('click', revokeOthers);
  store.subscribe(render);
  render(store.getState());
  return { show, close };
}
