// @ts-check
// The few ways the app touches the page's structure. Note text reaches the page only
// through textContent and form values: never as HTML (the policy's Trusted Types would
// stop that anyway).

/**
 * The element with `id`, checked to be a `type`: a missing or different element is a
 * bug in the page, and says so at start-up rather than later.
 * @template {Element} T
 * @param {string} id
 * @param {{ new (): T, prototype: T }} type
 * @returns {T}
 */
export function byId(id, type) {
  const found = document.getElementById(id);
  if (!(found instanceof type)) throw new Error(`#${id} is missing or not a ${type.name}`);
  return found;
}

/**
 * A new element with a class and text.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {string} [className]
 * @param {string} [text]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * Sets `node`'s text only when it differs, so re-rendering an unchanged alert or status
 * does not make a screen reader announce it again.
 * @param {Node} node
 * @param {string} text
 */
export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

/**
 * Asks with the page's modal dialog; resolves true only when the user confirms.
 * @param {{ title: string, text: string, ok: string }} question
 */
export function confirmDialog({ title, text, ok }) {
  const dialog = byId('confirm', HTMLDialogElement);
  byId('confirm-title', HTMLElement).textContent = title;
  byId('confirm-text', HTMLElement).textContent = text;
  byId('confirm-ok', HTMLButtonElement).textContent = ok;
  dialog.returnValue = '';
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'ok'), { once: true });
    dialog.showModal();
    // The safe choice has the focus, so Enter alone never destroys anything.
    byId('confirm-cancel', HTMLButtonElement).focus();
  });
}

/** Wires the dialog's two buttons, once at start-up. */
export function wireConfirmDialog() {
  const dialog = byId('confirm', HTMLDialogElement);
  byId('confirm-ok', HTMLButtonElement).addEventListener('click', () => dialog.close('ok'));
  byId('confirm-cancel', HTMLButtonElement)
    .addEventListener('click', () => dialog.close('cancel'));
}
