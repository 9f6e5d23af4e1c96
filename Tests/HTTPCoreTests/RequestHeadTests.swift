import Testing

@testable import HTTPCore

/// What the head parser makes of a head that has only partly arrived: a request line
/// within its limit waits for the rest, however the bytes were split into reads.
@Suite struct RequestHeadTests {
    static func outcome(of text: String) -> RequestHead.Outcome {
        Array(text.utf8).withUnsafeBytes { bytes in
            RequestHead.parse(bytes, previousLength: 0, limits: ServerConfiguration())
        }
    }

    /// Parts of a request line of a 64 KiB target (the largest allowed), cut before its
    /// end: past the 16 KiB the fields may take, but no field has begun.
    @Test(arguments: [1 << 10, 17 << 10, 40 << 10, 64 << 10])
    func aLongRequestLineCutShortIsIncomplete(received: Int) {
        let line = "GET /echo?p=" + String(repeating: "x", count: 64 << 10)
        guard case .incomplete = Self.outcome(of: String(line.prefix(received))) else {
            Issue.record("\(received) bytes: \(Self.outcome(of: String(line.prefix(received))))")
            return
        }
    }

    @Test func aRequestLineOverItsLimitIs414AndFieldsOverTheirsAre431() {
        let longLine = "GET /" + String(repeating: "x", count: (64 << 10) + 100)
        guard case .refused(.uriTooLong) = Self.outcome(of: longLine) else {
            Issue.record("\(Self.outcome(of: longLine))")
            return
        }
        let longFields = "GET / HTTP/1.1\r\nX: " + String(repeating: "y", count: 17 << 10)
        guard case .refused(.requestHeaderFieldsTooLarge) = Self.outcome(of: longFields) else {
            Issue.record("\(Self.outcome(of: longFields))")
            return
        }
    }
}
