import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
  apiDate, dateForSave, formatNoteDate, fromInputValue, toInputValue,
} from '../../Sources/MyNotesService/Web/Assets/dates.js';

describe('toInputValue: the API date as a datetime-local input normalizes it', () => {
  for (const [api, input] of [
    ['2026-11-29', '2026-11-29T00:00'],
    ['2026-11-29 18:30', '2026-11-29T18:30'],
    ['2026-11-29 18:30:00', '2026-11-29T18:30'],
    ['2026-11-29 18:30:05', '2026-11-29T18:30:05'],
    ['2026-11-29T07:05:59', '2026-11-29T07:05:59'],
    ['2024-02-29 00:00:01', '2024-02-29T00:00:01'],
  ]) {
    test(`${api} → ${input}`, () => assert.equal(toInputValue(api), input));
  }
  for (const text of ['', null, undefined, 'tomorrow', '2026-11-29 18', '2026-1-29', '26-11-29']) {
    test(`${JSON.stringify(text)} is not a date: ''`, () => assert.equal(toInputValue(text), ''));
  }
});

describe('fromInputValue: a datetime-local value → yyyy-MM-dd HH:mm:ss', () => {
  for (const [input, api] of [
    ['2026-11-29T18:30', '2026-11-29 18:30:00'],
    ['2026-11-29T18:30:05', '2026-11-29 18:30:05'],
    // The input keeps a fraction of a second when one was set; the API has none. The
    // fraction is cut, not rounded: 59.999 must not become an invalid 60.
    ['2026-11-29T23:59:59.999', '2026-11-29 23:59:59'],
    ['2026-11-29T08:00:07.5', '2026-11-29 08:00:07'],
    // A year past 9999 passes through, for the server to refuse in words.
    ['275760-09-13T00:00', '275760-09-13 00:00:00'],
  ]) {
    test(`${input} → ${api}`, () => assert.equal(fromInputValue(input), api));
  }
  test('anything else is left as it is, for the server to explain', () => {
    assert.equal(fromInputValue('next Tuesday'), 'next Tuesday');
    assert.equal(fromInputValue('2026-11-29'), '2026-11-29');
  });
  test('round trip from the API: the same moment, in full', () => {
    for (const [text, full] of [
      ['2026-11-29', '2026-11-29 00:00:00'],
      ['2026-11-29 18:30', '2026-11-29 18:30:00'],
      ['2026-11-29 18:30:00', '2026-11-29 18:30:00'],
      ['2026-11-29 18:30:42', '2026-11-29 18:30:42'],
    ]) {
      assert.equal(fromInputValue(toInputValue(text)), full);
    }
  });
});

describe('formatNoteDate: in the page language', () => {
  test('English, a date alone has no time', () => {
    const text = formatNoteDate('2026-11-29', 'en');
    assert.match(text, /Nov/);
    assert.match(text, /2026/);
    assert.doesNotMatch(text, /:/);
  });
  test('English, with a time', () => {
    assert.match(formatNoteDate('2026-11-29 18:30:00', 'en'), /6:30/);
  });
  test('Chinese', () => {
    const text = formatNoteDate('2026-11-29 18:30', 'zh-CN');
    assert.match(text, /2026年11月29日/);
    assert.match(text, /18:30/);
  });
  test('text that is not a date is shown as it is', () => {
    assert.equal(formatNoteDate('someday', 'en'), 'someday');
    assert.equal(formatNoteDate(null, 'en'), '');
  });
});

test('apiDate writes a local date and time with zero padding', () => {
  assert.equal(apiDate(new Date(2026, 0, 2, 3, 4, 5)), '2026-01-02 03:04:05');
  assert.equal(apiDate(new Date(2026, 11, 31, 23, 59, 59)), '2026-12-31 23:59:59');
});

describe('dateForSave', () => {
  const dateOnly = { date: '2026-11-29', dateInput: '2026-11-29T00:00' };
  test('an untouched field keeps the note’s own text: a date-only note stays date-only', () => {
    assert.equal(dateForSave(dateOnly, '2026-11-29T00:00'), '2026-11-29');
  });
  test('a changed field is sent in full', () => {
    assert.equal(dateForSave(dateOnly, '2026-11-30T09:15'), '2026-11-30 09:15:00');
  });
  test('an emptied field keeps the note’s date; a new note then sends none', () => {
    assert.equal(dateForSave(dateOnly, ''), '2026-11-29');
    assert.equal(dateForSave({ date: null, dateInput: '' }, ''), undefined);
  });
  test('a new note (no date yet) sends the field', () => {
    assert.equal(
      dateForSave({ date: null, dateInput: '2026-11-29T10:00' }, '2026-11-29T10:00'),
      '2026-11-29 10:00:00');
  });
});
