import Foundation
import Testing

@testable import MyNotesKit

/// The `text/event-stream` parser against the HTML standard's rules, fed the way a
/// network delivers bytes: in chunks cut anywhere.
@Suite("Server-Sent Events parser")
struct ServerSentEventParserTests {
    static let stream = Array(
        ("\u{FEFF}retry: 2500\r\n\r\n: heartbeat\n\nid: 7\nevent: change\ndata: {\"a\":1}\n\n"
            + "id: 8\r\ndata: line one\rdata: line two\r\n\r\n"
            + "data\n\nid: 9\n\n: trailing comment\n").utf8)

    static let expected = [
        ServerSentEvent(type: "change", data: #"{"a":1}"#, lastEventID: "7"),
        ServerSentEvent(type: "message", data: "line one\nline two", lastEventID: "8"),
        ServerSentEvent(type: "message", data: "", lastEventID: "8"),
    ]

    /// Every way of cutting the stream in chunks of `size` bytes gives the same events.
    @Test("Chunks cut anywhere give the same events", arguments: [1, 2, 3, 5, 8, 13, 1000])
    func chunked(size: Int) throws {
        var parser = ServerSentEventParser()
        var events: [ServerSentEvent] = []
        var start = 0
        while start < Self.stream.count {
            let end = min(start + size, Self.stream.count)
            events += try parser.feed(Self.stream[start..<end])
            start = end
        }
        #expect(events == Self.expected)
        #expect(parser.retry == .milliseconds(2500))
        // An id alone moves the last event ID without dispatching an event.
        #expect(parser.lastEventID == "9")
        #expect(parser.comments == 2)
    }

    @Test("A CRLF split between two chunks ends one line, not two")
    func splitCRLF() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.feed(Array("data: x\r".utf8)).isEmpty)
        // Were the LF a second line end, this would dispatch "x" with the blank line.
        #expect(
            try parser.feed(Array("\ndata: y\r\n\r\n".utf8)) == [
                ServerSentEvent(type: "message", data: "x\ny", lastEventID: "")
            ])
    }

    @Test("An event cut off before its blank line does not move the last event ID")
    func cutOff() throws {
        var parser = ServerSentEventParser()
        _ = try parser.feed(Array("id: 1\ndata: a\n\nid: 2\ndata: b\n".utf8))
        #expect(parser.lastEventID == "1")
    }

    @Test(
        "Fields the standard ignores are ignored",
        arguments: [
            ("retry: 12a\n\n", nil as Duration?, ""),
            ("retry:\n\n", nil, ""),
            ("retry:500\n\n", .milliseconds(500), ""),
            ("id: a\u{0}b\n\n", nil, ""),
            ("id:x\n\n", nil, "x"),
            ("idx: 3\n\n", nil, ""),
            ("data:  two spaces\n\n", nil, ""),
        ])
    func ignored(text: String, retry: Duration?, lastEventID: String) throws {
        var parser = ServerSentEventParser()
        let events = try parser.feed(Array(text.utf8))
        #expect(parser.retry == retry)
        #expect(parser.lastEventID == lastEventID)
        if text.hasPrefix("data") {
            // Only the one space after the colon is dropped.
            #expect(events.map(\.data) == [" two spaces"])
        } else {
            #expect(events.isEmpty)
        }
    }

    @Test("A line that never ends fails instead of filling memory")
    func overflow() throws {
        var parser = ServerSentEventParser(maximumEventBytes: 1000)
        // Data lines each under the limit, together over it, are one event too long.
        let line = Array(("data: " + String(repeating: "x", count: 300) + "\n").utf8)
        #expect(throws: ServerSentEventParser.Overflow.self) {
            for _ in 0..<4 { _ = try parser.feed(line) }
        }
        var single = ServerSentEventParser(maximumEventBytes: 1000)
        #expect(throws: ServerSentEventParser.Overflow.self) {
            _ = try single.feed([UInt8](repeating: UInt8(ascii: "x"), count: 1001))
        }
    }
}
