// @ts-check
// Server-Sent Events, parsed as the HTML standard's EventSource parses them
// (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation).
// The app reads the change stream with fetch(), because EventSource cannot send the
// Authorization header, so it parses the stream itself. Pure: the unit tests feed it text.

/**
 * One dispatched event: its type (`message` when the stream named none), its data (the
 * `data:` lines joined by newlines) and the last event ID at the time it was dispatched.
 * @typedef {{ type: string, data: string, id: string }} SseEvent
 */

export class SseParser {
  /** The text of a line begun in an earlier chunk. */
  #line = '';
  /** A chunk ended in CR: a LF starting the next one belongs to the same line end. */
  #afterCR = false;
  #started = false;
  #data = '';
  #hasData = false;
  #type = '';
  #idBuffer;
  /** The last event ID, as a reconnection sends it in `Last-Event-ID`. */
  lastEventId;
  /**
   * The reconnection time the stream asked for (`retry:`), in milliseconds; null if none.
   * @type {number | null}
   */
  retry = null;

  /** @param {string} [lastEventId] the ID a resumed stream starts from */
  constructor(lastEventId = '') {
    this.lastEventId = lastEventId;
    this.#idBuffer = lastEventId;
  }

  /**
   * Parses the next piece of the stream (already decoded as UTF-8, which the standard
   * requires); returns the events it completed, in order. A line may span chunks.
   * @param {string} chunk
   * @returns {SseEvent[]}
   */
  feed(chunk) {
    /** @type {SseEvent[]} */
    const events = [];
    let text = chunk;
    if (!this.#started && text.length > 0) {
      this.#started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    let start = 0;
    if (this.#afterCR && text.startsWith('\n')) start = 1;
    if (text.length > 0) this.#afterCR = false;
    const ends = /\r\n|\r|\n/g;
    ends.lastIndex = start;
    for (let match = ends.exec(text); match; match = ends.exec(text)) {
      // A CR at the very end may be the first half of a CRLF split across chunks.
      if (match[0] === '\r' && match.index === text.length - 1) this.#afterCR = true;
      this.#processLine(this.#line + text.slice(start, match.index), events);
      this.#line = '';
      start = ends.lastIndex;
    }
    this.#line += text.slice(start);
    return events;
  }

  /**
   * @param {string} line
   * @param {SseEvent[]} events
   */
  #processLine(line, events) {
    if (line === '') {
      this.#dispatch(events);
      return;
    }
    if (line.startsWith(':')) return; // a comment: a heartbeat keeps the connection alive
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        this.#type = value;
        break;
      case 'data':
        this.#data += this.#hasData ? `\n${value}` : value;
        this.#hasData = true;
        break;
      case 'id':
        if (!value.includes('\0')) this.#idBuffer = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.retry = Number.parseInt(value, 10);
        break;
      default:
        break; // unknown fields are ignored
    }
  }

  /** @param {SseEvent[]} events */
  #dispatch(events) {
    // The ID counts even for a block without data: a server may say where a stream starts.
    this.lastEventId = this.#idBuffer;
    if (this.#hasData) {
      events.push({ type: this.#type || 'message', data: this.#data, id: this.lastEventId });
    }
    this.#data = '';
    this.#hasData = false;
    this.#type = '';
  }
}
