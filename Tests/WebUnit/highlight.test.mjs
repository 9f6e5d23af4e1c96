import assert from 'node:assert/strict';
import { test } from 'node:test';

import { highlight } from '../../Sources/MyNotesService/Web/Assets/highlight.js';

/** The pieces as a string with the matches in brackets. */
function marked(text, query) {
  return highlight(text, query).map(({ text, match }) => (match ? `[${text}]` : text)).join('');
}

test('every match is marked, ignoring case as the server does', () => {
  assert.equal(marked('Milk, more MILK, milkshake', 'milk'), '[Milk], more [MILK], [milk]shake');
  assert.equal(marked('Hauptstraße 5', 'STRASSE'), 'Haupt[straße] 5');
  assert.equal(marked('ΣΟΦΊΑ', 'σοφία'), '[ΣΟΦΊΑ]');
  assert.equal(marked('周一会议，周二会议', '会议'), '周一[会议]，周二[会议]');
});

test('accents, width and kana are not folded', () => {
  assert.equal(marked('café cafe', 'cafe'), 'café [cafe]');
  assert.equal(marked('ｍilk milk', 'milk'), 'ｍilk [milk]');
});

test('the pieces give the text back, emoji and markup untouched', () => {
  const text = '<b>👩‍💻 & "quotes"</b> 100% a_b';
  for (const query of ['<b>', '👩', '%', '_', '"', 'zzz']) {
    assert.equal(highlight(text, query).map((piece) => piece.text).join(''), text);
  }
  assert.equal(marked(text, '<b>'), '[<b>]👩‍💻 & "quotes"</b> 100% a_b');
});

test('a query that folds to nothing marks nothing', () => {
  assert.deepEqual(highlight('milk', ''), [{ text: 'milk', match: false }]);
  assert.deepEqual(highlight('', 'milk'), []);
});
