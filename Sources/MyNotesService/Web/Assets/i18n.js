// @ts-check
// The app's words in English and Chinese, and the choice between them. Pure: nothing here
// touches the page, so the unit tests import it as it is (Tests/WebUnit).

const ENGLISH = {
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
  accountOpen: 'Account',
  accountTitle: 'Account',
  backToNotes: 'Back to notes',
  changePasswordTitle: 'Change password',
  currentPassword: 'Current password',
  newPassword: 'New password',
  newPasswordHint: 'At least 8 characters. Every other session is signed out.',
  changePassword: 'Change password',
  passwordChanged: 'Password changed. Every other session is signed out.',
  sessionsTitle: 'Where you are signed in',
  thisSession: 'This browser',
  otherSession: 'Another sign-in',
  accessKey: 'Access key from the server’s operator',
  sessionTimes: 'Since {created} · last used {used}',
  revokeSession: 'Sign out',
  revokeSessionLabel: 'Sign out the session signed in {created}',
  revokeOthers: 'Sign out everywhere else',
  sessionRevoked: 'That session is signed out.',
  othersRevoked: 'Signed out everywhere else ({n}).',
  liveConflictTitle: 'This note was changed elsewhere while you were editing it',
  liveConflictGoneTitle: 'This note was deleted elsewhere while you were editing it',
  liveOpenChanged: 'This note was changed elsewhere; it now shows the latest version.',
  liveOpenDeleted: 'The note you had open was deleted elsewhere.',
  liveAdded: 'Added elsewhere: “{preview}”.',
  liveChanged: 'Changed elsewhere: “{preview}”.',
  liveDeleted: 'Deleted elsewhere: “{preview}”.',
  liveMany: '{n} notes changed elsewhere.',
  liveWaiting: 'Live updates paused: reconnecting…',
};

/** @typedef {keyof typeof ENGLISH} MessageKey */
/** @typedef {'en' | 'zh'} Language */
/** @typedef {(key: MessageKey, values?: Record<string, string | number>) => string} Translate */

/** @type {Record<MessageKey, string>} */
const CHINESE = {
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
  accountOpen: '账户',
  accountTitle: '账户',
  backToNotes: '返回备忘录',
  changePasswordTitle: '修改密码',
  currentPassword: '当前密码',
  newPassword: '新密码',
  newPasswordHint: '至少 8 个字符。其他所有会话都将退出登录。',
  changePassword: '修改密码',
  passwordChanged: '密码已修改。其他所有会话都已退出登录。',
  sessionsTitle: '已登录的地方',
  thisSession: '此浏览器',
  otherSession: '另一次登录',
  accessKey: '服务器管理员发放的访问密钥',
  sessionTimes: '登录于 {created} · 最近使用 {used}',
  revokeSession: '退出登录',
  revokeSessionLabel: '退出 {created} 登录的会话',
  revokeOthers: '在其他所有地方退出登录',
  sessionRevoked: '该会话已退出登录。',
  othersRevoked: '已在其他所有地方退出登录（{n}）。',
  liveConflictTitle: '你编辑时，这条备忘录已在别处被修改',
  liveConflictGoneTitle: '你编辑时，这条备忘录已在别处被删除',
  liveOpenChanged: '这条备忘录已在别处被修改，现在显示的是最新版本。',
  liveOpenDeleted: '你打开的备忘录已在别处被删除。',
  liveAdded: '别处新增了：“{preview}”。',
  liveChanged: '别处修改了：“{preview}”。',
  liveDeleted: '别处删除了：“{preview}”。',
  liveMany: '别处有 {n} 条备忘录发生了变化。',
  liveWaiting: '实时更新已暂停，正在重新连接…',
};

/**
 * Every language's messages; a key missing from one would fall back to English.
 * @type {Record<Language, Partial<Record<MessageKey, string>>>}
 */
export const MESSAGES = { en: ENGLISH, zh: CHINESE };

/**
 * The first language among the browser's preferences that the app speaks: Chinese for
 * `zh`, `zh-CN`, `zh-TW`…, English for `en…`, English when neither is listed.
 * @param {readonly string[]} preferences `navigator.languages`, most preferred first
 * @returns {Language}
 */
export function pickLanguage(preferences) {
  for (const tag of preferences) {
    const lower = String(tag).toLowerCase();
    if (lower.startsWith('zh')) return 'zh';
    if (lower.startsWith('en')) return 'en';
  }
  return 'en';
}

/**
 * The locale dates are formatted in, and the `Accept-Language` every request carries so
 * that the server's problem details match the page.
 * @param {Language} language
 */
export function localeOf(language) {
  return language === 'zh'
    ? { locale: 'zh-CN', acceptLanguage: 'zh-CN, zh;q=0.9' }
    : { locale: 'en', acceptLanguage: 'en' };
}

/**
 * A message in `language`, with `{name}` placeholders filled from `values` (a missing
 * value leaves nothing, never the word `undefined`).
 * @param {Language} language
 * @returns {Translate}
 */
export function translator(language) {
  return (key, values = {}) => {
    const text = MESSAGES[language][key] ?? MESSAGES.en[key] ?? key;
    return text.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ''));
  };
}
