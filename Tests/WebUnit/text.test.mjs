import assert from 'node:assert/strict';
import { test } from 'node:test';

import { preview, truncate } from '../../Sources/MyNotesService/Web/Assets/text.js';

test('truncate keeps short text whole and cuts long text to the length', () => {
  assert.equal(truncate('milk', 10), 'milk');
  assert.equal(truncate('milk and eggs', 4), 'milk');
  assert.equal(truncate('买牛奶和鸡蛋', 3), '买牛奶');
});

test('truncate never ends in half an emoji', () => {
  const text = 'ab🥚cd'; // the egg is two UTF-16 units, at 2 and 3
  assert.equal(truncate(text, 3), 'ab');
  assert.equal(truncate(text, 4), 'ab🥚');
});

test('preview is one line of at most 60 units and an ellipsis', () => {
  assert.equal(preview('  Buy milk\n\n\tand eggs  '), 'Buy milk and eggs');
  const long = 'x'.repeat(59) + '🥚 and more';
  assert.equal(preview(long), 'x'.repeat(59) + '…');
  assert.equal(preview('y'.repeat(60)), 'y'.repeat(60));
  assert.equal(preview('y'.repeat(61)), 'y'.repeat(60) + '…');
});
