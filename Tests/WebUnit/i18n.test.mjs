import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
  MESSAGES, localeOf, pickLanguage, translator,
} from '../../Sources/MyNotesService/Web/Assets/i18n.js';

describe('pickLanguage: the first of the browser’s preferences the app speaks', () => {
  for (const [preferences, expected] of [
    [['zh-CN', 'en'], 'zh'],
    [['zh-TW'], 'zh'],
    [['ZH'], 'zh'],
    [['en-GB', 'zh-CN'], 'en'],
    [['fr-FR', 'zh-Hans-CN', 'en'], 'zh'],
    [['fr', 'de'], 'en'],
    [[], 'en'],
  ]) {
    test(`${JSON.stringify(preferences)} → ${expected}`, () => {
      assert.equal(pickLanguage(preferences), expected);
    });
  }
});

test('localeOf: dates and the server’s messages in the same language', () => {
  assert.deepEqual(localeOf('zh'), { locale: 'zh-CN', acceptLanguage: 'zh-CN, zh;q=0.9' });
  assert.deepEqual(localeOf('en'), { locale: 'en', acceptLanguage: 'en' });
});

describe('translator', () => {
  const en = translator('en');
  const zh = translator('zh');
  test('looks a message up in the language', () => {
    assert.equal(en('save'), 'Save');
    assert.equal(zh('save'), '保存');
  });
  test('fills placeholders, and leaves nothing for a missing value', () => {
    assert.equal(en('noMatches', { q: 'milk' }), 'No notes contain “milk”.');
    assert.equal(zh('retryAfter', { n: 30 }), '请在 30 秒后重试。');
    assert.equal(en('noMatches'), 'No notes contain “”.');
  });
  test('an unknown key shows as itself rather than as nothing', () => {
    assert.equal(en(/** @type {any} */ ('noSuchMessage')), 'noSuchMessage');
  });
});

test('both languages have every message, none empty, with the same placeholders', () => {
  const placeholders = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  assert.deepEqual(Object.keys(MESSAGES.zh).sort(), Object.keys(MESSAGES.en).sort());
  for (const [key, english] of Object.entries(MESSAGES.en)) {
    const chinese = MESSAGES.zh[key];
    assert.ok(english && chinese, key);
    assert.deepEqual(placeholders(chinese), placeholders(english), key);
  }
});
