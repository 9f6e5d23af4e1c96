// @ts-check
// A note's date in its three forms: the API's text (`yyyy-MM-dd`, `yyyy-MM-dd HH:mm` or
// `yyyy-MM-dd HH:mm:ss`, local time), a datetime-local input's value, and the words the
// user reads. Pure, so the unit tests import it as it is (Tests/WebUnit).

const API_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;
// What a datetime-local input holds: a year of four or more digits, and seconds (with a
// fraction) only when they are not zero.
const INPUT_VALUE = /^(\d{4,})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;

/** @param {number} n */
const pad = (n) => String(n).padStart(2, '0');

/**
 * A note's date as the user reads it, in `locale`; text that is not a date is shown as
 * it is.
 * @param {string | null | undefined} text
 * @param {string} locale
 */
export function formatNoteDate(text, locale) {
  const match = API_DATE.exec(text ?? '');
  if (!match) return text ?? '';
  const [, y, mo, d, h, mi, s] = match;
  const date = new Date(+y, +mo - 1, +d, +(h ?? 0), +(mi ?? 0), +(s ?? 0));
  /** @type {Intl.DateTimeFormatOptions} */
  const options =
    h === undefined ? { dateStyle: 'medium' } : { dateStyle: 'medium', timeStyle: 'short' };
  return new Intl.DateTimeFormat(locale, options).format(date);
}

/**
 * The API's date → the value a datetime-local input takes, in the input's own normalized
 * form (`…T18:30` rather than `…T18:30:00`): reading the input back gives the same text,
 * so comparing the two tells whether the user changed the date. '' when not a date.
 * @param {string | null | undefined} text
 */
export function toInputValue(text) {
  const match = API_DATE.exec(text ?? '');
  if (!match) return '';
  const [, y, mo, d, h = '00', mi = '00', s = '00'] = match;
  return `${y}-${mo}-${d}T${h}:${mi}${s === '00' ? '' : `:${s}`}`;
}

/**
 * A datetime-local value → `yyyy-MM-dd HH:mm:ss`, one of the API's forms. A fraction of a
 * second is cut off, never rounded (59.9 s must not become 60). Anything else is returned
 * as it is, for the server to refuse in words.
 * @param {string} value
 */
export function fromInputValue(value) {
  const match = INPUT_VALUE.exec(value);
  if (!match) return value;
  const [, y, mo, d, h, mi, s = '00'] = match;
  return `${y}-${mo}-${d} ${h}:${mi}:${s}`;
}

/**
 * `now` as the API writes a local date and time.
 * @param {Date} now
 */
export function apiDate(now) {
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())} `
    + `${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}`;
}

/**
 * The date to send with a save: the note's own text while the field shows it unchanged,
 * so a date-only note stays date-only; the note's date when the field was emptied;
 * else the field's value.
 * @param {{ date: string | null, dateInput: string }} note the version being edited
 * @param {string} inputValue the date field's value now
 * @returns {string | undefined}
 */
export function dateForSave(note, inputValue) {
  if (inputValue === note.dateInput && note.date) return note.date;
  if (!inputValue) return note.date ?? undefined;
  return fromInputValue(inputValue);
}
