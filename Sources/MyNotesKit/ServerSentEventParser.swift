/// The `text/event-stream` parser of the HTML standard (§9.2.6), fed bytes as they
/// arrive, in chunks cut anywhere: lines end in CR, LF or CRLF (even a CRLF split across
/// two chunks), a leading byte-order mark is skipped, `:` lines are comments, `data:`
/// lines accumulate, `id:` and `retry:` set what a reconnection uses, and a blank line
/// dispatches the event (none when it has no data).
///
/// ```swift
/// var parser = ServerSentEventParser()
/// let events = try parser.feed(Array("retry: 3000\n\nid: 7\nevent: change\ndata: {}\n\n".utf8))
/// // [ServerSentEvent(type: "change", data: "{}", lastEventID: "7")]; parser.retry == 3 s
/// ```
package struct ServerSentEventParser: Sendable {
    /// The longest line or event kept, in bytes: a peer that never ends one fails the
    /// stream instead of filling memory.
    package let maximumEventBytes: Int

    /// The last event ID of the stream: the `id:` in force at the last blank line, whether
    /// or not that message had data (an `id:` alone moves it too). What `Last-Event-ID`
    /// says on reconnection: an event cut off before its blank line does not count.
    /// Empty before any `id:`.
    package private(set) var lastEventID = ""
    /// The reconnection time the stream asked for (`retry:`), if any.
    package private(set) var retry: Duration?
    /// Comment lines seen (heartbeats), for liveness.
    package private(set) var comments = 0

    private var line: [UInt8] = []
    private var afterCarriageReturn = false
    private var firstLine = true
    private var data = ""
    private var hasData = false
    private var eventType = ""
    /// The `id:` read so far, committed to ``lastEventID`` by the next blank line.
    private var idBuffer = ""

    /// A parser; events longer than `maximumEventBytes` (16 MiB) fail.
    package init(maximumEventBytes: Int = 16 << 20) {
        self.maximumEventBytes = maximumEventBytes
    }

    /// What became of a chunk: the events it completed, in order.
    package mutating func feed(_ bytes: some Sequence<UInt8>) throws(ServerSentEventParser.Overflow)
        -> [ServerSentEvent]
    {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            switch byte {
            case 0x0A where afterCarriageReturn:
                afterCarriageReturn = false
            case 0x0A, 0x0D:
                afterCarriageReturn = byte == 0x0D
                if let event = endLine() { events.append(event) }
            default:
                afterCarriageReturn = false
                guard line.count + data.utf8.count < maximumEventBytes else {
                    throw Overflow()
                }
                line.append(byte)
            }
        }
        return events
    }

    /// A line or event longer than the parser's `maximumEventBytes`.
    package struct Overflow: Error, Sendable {}

    /// Processes the line just ended; an event when it was the blank line ending one.
    private mutating func endLine() -> ServerSentEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        if firstLine {
            firstLine = false
            if line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
        }
        guard !line.isEmpty else { return dispatch() }
        if line.first == UInt8(ascii: ":") {
            comments += 1
            return nil
        }
        let field: String
        let value: Substring
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            field = String(decoding: line[..<colon], as: UTF8.self)
            var rest = line[(colon + 1)...]
            if rest.first == UInt8(ascii: " ") { rest = rest.dropFirst() }
            value = Substring(String(decoding: rest, as: UTF8.self))
        } else {
            field = String(decoding: line, as: UTF8.self)
            value = ""
        }
        switch field {
        case "event":
            eventType = String(value)
        case "data":
            if hasData { data += "\n" }
            data += value
            hasData = true
        case "id":
            if !value.unicodeScalars.contains("\u{0}") {
                idBuffer = String(value)
            }
        case "retry":
            if !value.isEmpty, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                let milliseconds = Int(value)
            {
                retry = .milliseconds(milliseconds)
            }
        default:
            break
        }
        return nil
    }

    /// The event the blank line ends, if it has data; the buffers start over either way.
    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            data = ""
            hasData = false
            eventType = ""
        }
        lastEventID = idBuffer
        guard hasData else { return nil }
        return ServerSentEvent(
            type: eventType.isEmpty ? "message" : eventType, data: data, lastEventID: lastEventID)
    }
}
