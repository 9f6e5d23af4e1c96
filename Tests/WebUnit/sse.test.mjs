import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { SseParser } from '../../Sources/MyNotesService/Web/Assets/sse.js';

/** Everything `chunks` dispatch, fed one after the other to one parser. */
function parse(chunks, lastEventId) {
  const parser = new SseParser(lastEventId);
  const events = chunks.flatMap((chunk) => parser.feed(chunk));
  return { events, parser };
}

const change = (id, data) => `id: ${id}\nevent: change\ndata: ${data}\n\n`;

describe('the SSE parser', () => {
  test('reads the change stream as the server writes it', () => {
    const { events, parser } = parse([
      'retry: 3000\n\n', change('17', '{"a":1}'), ': heartbeat\n\n', change('18', '{"b":2}'),
    ]);
    assert.deepEqual(events, [
      { type: 'change', data: '{"a":1}', id: '17' },
      { type: 'change', data: '{"b":2}', id: '18' },
    ]);
    assert.equal(parser.retry, 3000);
    assert.equal(parser.lastEventId, '18');
  });

  test('an event is dispatched only by its blank line, wherever the chunks are cut', () => {
    const text = 'id: 5\nevent: change\ndata: {"x":"héllo, 世界"}\n\nid: 6\ndata: two\n\n';
    const whole = parse([text]).events;
    assert.equal(whole.length, 2);
    for (let cut = 0; cut <= text.length; cut += 1) {
      const { events } = parse([text.slice(0, cut), text.slice(cut)]);
      assert.deepEqual(events, whole, `cut at ${cut}`);
    }
    // One character at a time too.
    assert.deepEqual(parse([...text]).events, whole);
    // Nothing is dispatched before the blank line.
    assert.deepEqual(parse(['id: 5\nevent: change\ndata: {}\n']).events, []);
  });

  test('lines end in LF, CR or CRLF, and a CRLF split across chunks is one line end', () => {
    const expected = [{ type: 'change', data: 'x', id: '1' }, { type: 'message', data: 'y', id: '2' }];
    assert.deepEqual(parse(['id: 1\r\nevent: change\r\ndata: x\r\n\r\nid: 2\rdata: y\r\r']).events,
      expected);
    assert.deepEqual(parse(['id: 1\r', '\nevent: change\r', '\ndata: x\r', '\n\r', '\nid: 2\r',
      'data: y\r', '\r']).events, expected);
  });

  test('data lines join with newlines; one space after the colon is dropped, no more', () => {
    const { events } = parse(['data:a\ndata:  b\ndata\ndata: \n\n']);
    assert.deepEqual(events, [{ type: 'message', data: 'a\n b\n\n', id: '' }]);
  });

  test('comments, unknown fields and blocks without data dispatch nothing', () => {
    const { events } = parse([': hello\n\nevent: change\n\nfoo: bar\n\n:\n\n']);
    assert.deepEqual(events, []);
  });

  test('the event type does not carry over to the next event', () => {
    const { events } = parse(['event: change\ndata: 1\n\ndata: 2\n\n']);
    assert.deepEqual(events.map((event) => event.type), ['change', 'message']);
  });

  test('an id without data still moves the last event ID; an id with NUL is ignored', () => {
    const { events, parser } = parse(['retry: 3000\nid: 41\n\n']);
    assert.deepEqual(events, []);
    assert.equal(parser.lastEventId, '41');
    const nul = parse(['id: 7\n\nid: 8\u0000\ndata: x\n\n']);
    assert.deepEqual(nul.events, [{ type: 'message', data: 'x', id: '7' }]);
    // An empty id resets it, as the standard says.
    assert.equal(parse(['id: 7\n\nid\n\n']).parser.lastEventId, '');
  });

  test('the ID persists across events and starts from the resumed cursor', () => {
    const { events } = parse(['data: a\n\nid: 9\ndata: b\n\ndata: c\n\n'], '4');
    assert.deepEqual(events.map((event) => event.id), ['4', '9', '9']);
  });

  test('retry takes ASCII digits only', () => {
    assert.equal(parse(['retry: 250\n\n']).parser.retry, 250);
    for (const bad of ['retry: 2.5\n\n', 'retry: -1\n\n', 'retry: 1e3\n\n', 'retry:\n\n']) {
      assert.equal(parse([bad]).parser.retry, null, bad);
    }
    assert.equal(parse(['retry: 100\n\nretry: x\n\n']).parser.retry, 100);
  });

  test('a byte order mark at the very start is skipped, and only there', () => {
    assert.deepEqual(parse(['\uFEFFdata: a\n\n']).events,
      [{ type: 'message', data: 'a', id: '' }]);
    assert.deepEqual(parse(['', '\uFEFFdata: a\n\n']).events,
      [{ type: 'message', data: 'a', id: '' }]);
    assert.deepEqual(parse(['data: a\n\n', '\uFEFFdata: b\n\n']).events,
      [{ type: 'message', data: 'a', id: '' }]);
  });

  test('HTML in data is just text: the parser never interprets it', () => {
    const data = '<script>alert(1)</script><img src=x onerror=alert(2)>';
    assert.deepEqual(parse([`data: ${data}\n\n`]).events, [{ type: 'message', data, id: '' }]);
  });
});
