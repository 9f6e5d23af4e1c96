// @ts-check
// Shortening note text for the list and for questions about a note. Pure.

/**
 * The first `length` UTF-16 units of `text`, never ending in half a surrogate pair (an
 * emoji cut in two would show as a replacement character).
 * @param {string} text
 * @param {number} length
 */
export function truncate(text, length) {
  if (text.length <= length) return text;
  const cut = text.slice(0, length);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/**
 * A note on one line, at most 60 units and an ellipsis: what a confirmation quotes.
 * @param {string} content
 */
export function preview(content) {
  const line = content.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${truncate(line, 60)}…` : line;
}
