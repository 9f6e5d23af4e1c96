// @ts-check
// Where a search matched in a note's text, for the list to mark: the server's own folding
// (upper-case, then lower-case, with Unicode's full mappings, so `strasse` finds `Straße`)
// and a plain substring of the folded text. Pure; the list turns the pieces into text
// nodes and <mark> elements, never into HTML.

/** @typedef {{ text: string, match: boolean }} Piece */

/**
 * `text` cut into pieces, each either a match of `query` or text between matches; the
 * pieces joined give `text` back. A query that folds to nothing matches nowhere.
 * @param {string} text
 * @param {string} query
 * @returns {Piece[]}
 */
export function highlight(text, query) {
  const needle = [...query.toUpperCase().toLowerCase()];
  if (needle.length === 0) return text ? [{ text, match: false }] : [];
  /** @type {string[]} */
  const folded = [];
  /** @type {number[]} where each folded code point's character starts in `text` */
  const starts = [];
  /** @type {number[]} and where it ends */
  const ends = [];
  let offset = 0;
  for (const character of text) {
    for (const piece of character.toUpperCase().toLowerCase()) {
      folded.push(piece);
      starts.push(offset);
      ends.push(offset + character.length);
    }
    offset += character.length;
  }
  /** @type {Piece[]} */
  const pieces = [];
  let shown = 0;
  for (let at = 0; at + needle.length <= folded.length; at += 1) {
    if (!needle.every((point, index) => folded[at + index] === point)) continue;
    const start = starts[at];
    const end = ends[at + needle.length - 1];
    if (start < shown) continue; // overlaps the previous match (inside one folded character)
    if (start > shown) pieces.push({ text: text.slice(shown, start), match: false });
    pieces.push({ text: text.slice(start, end), match: true });
    shown = end;
    at += needle.length - 1;
  }
  if (shown < text.length) pieces.push({ text: text.slice(shown), match: false });
  return pieces;
}
