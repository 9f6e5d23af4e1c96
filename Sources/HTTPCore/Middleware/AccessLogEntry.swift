import PercentEncoding
import ServerLogging

/// One line of the access log, as recorded on the request's thread: only copies of what
/// the request and response hold. Formatting (the date, escaping, redaction) happens on
/// the ``AccessLogWriter``'s thread.
public struct AccessLogEntry: Sendable {
    public var time: Int64
    public var clientAddress: String?
    public var method: String
    public var path: String
    public var rawQuery: [UInt8]?
    public var status: Int
    /// The body's length; `nil` for a streamed body, whose length is not known yet.
    public var bytes: Int?
    public var duration: Duration
    public var requestID: String?
    public var referer: String?
    public var userAgent: String?

    public init(
        time: Int64, clientAddress: String?, method: String, path: String, rawQuery: [UInt8]?,
        status: Int, bytes: Int?, duration: Duration, requestID: String?, referer: String?,
        userAgent: String?
    ) {
        self.time = time
        self.clientAddress = clientAddress
        self.method = method
        self.path = path
        self.rawQuery = rawQuery
        self.status = status
        self.bytes = bytes
        self.duration = duration
        self.requestID = requestID
        self.referer = referer
        self.userAgent = userAgent
    }

    /// Query parameters whose values are never written: credentials, and what a person
    /// wrote (a note, a search) or is (an email).
    public static let redactedParameters: Set<String> = [
        "token", "access_token", "email", "content", "password", "q",
    ]

    /// The path and query to write: each value of a ``redactedParameters`` name (in any
    /// case or percent-encoding) is replaced by `REDACTED`.
    public var target: String {
        var bytes: [UInt8] = []
        appendTarget(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// One line in the combined log format, with the duration in seconds and the request
    /// ID after it: `addr - - [time] "GET /p?q" 200 12 "referer" "agent" 0.000412 id`.
    public var combinedLine: String {
        var bytes: [UInt8] = []
        var time = AccessLogTimestamp()
        appendCombined(to: &bytes, time: &time)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// One JSON object on one line.
    public var jsonLine: String {
        var bytes: [UInt8] = []
        var time = AccessLogTimestamp()
        appendJSON(to: &bytes, time: &time)
        return String(decoding: bytes, as: UTF8.self)
    }

    // The writer thread formats thousands of lines a second: bytes appended to one
    // buffer, a fast path for the plain ASCII most fields are, the date formatted once a
    // second (about 1 µs a line instead of 11 with string concatenation).

    func appendCombined(to out: inout [UInt8], time: inout AccessLogTimestamp) {
        out.append(contentsOf: (clientAddress ?? "-").utf8)
        out.append(contentsOf: " - - [".utf8)
        time.append(self.time, to: &out)
        out.append(contentsOf: "] \"".utf8)
        var request = Array(method.utf8)
        request.append(UInt8(ascii: " "))
        appendTarget(to: &request)
        Self.appendQuotedBody(request, to: &out)
        out.append(contentsOf: "\" ".utf8)
        Self.appendInteger(status, to: &out)
        out.append(UInt8(ascii: " "))
        if let bytes { Self.appendInteger(bytes, to: &out) } else { out.append(UInt8(ascii: "-")) }
        out.append(contentsOf: " \"".utf8)
        Self.appendQuotedBody(Array(Self.orDash(referer).utf8), to: &out)
        out.append(contentsOf: "\" \"".utf8)
        Self.appendQuotedBody(Array(Self.orDash(userAgent).utf8), to: &out)
        out.append(contentsOf: "\" ".utf8)
        appendSeconds(to: &out)
        out.append(UInt8(ascii: " "))
        Self.appendQuotedBody(Array((requestID ?? "-").utf8), to: &out)
    }

    func appendJSON(to out: inout [UInt8], time: inout AccessLogTimestamp) {
        out.append(contentsOf: "{\"time\":\"".utf8)
        time.append(self.time, to: &out)
        out.append(contentsOf: "\",\"client\":".utf8)
        Self.appendJSONString(clientAddress.map { Array($0.utf8) }, to: &out)
        out.append(contentsOf: ",\"method\":".utf8)
        Self.appendJSONString(Array(method.utf8), to: &out)
        out.append(contentsOf: ",\"path\":".utf8)
        var target: [UInt8] = []
        appendTarget(to: &target)
        Self.appendJSONString(target, to: &out)
        out.append(contentsOf: ",\"status\":".utf8)
        Self.appendInteger(status, to: &out)
        out.append(contentsOf: ",\"bytes\":".utf8)
        if let bytes {
            Self.appendInteger(bytes, to: &out)
        } else {
            out.append(contentsOf: "null".utf8)
        }
        out.append(contentsOf: ",\"duration_seconds\":".utf8)
        appendSeconds(to: &out)
        out.append(contentsOf: ",\"request_id\":".utf8)
        Self.appendJSONString(requestID.map { Array($0.utf8) }, to: &out)
        out.append(contentsOf: ",\"referer\":".utf8)
        Self.appendJSONString(referer.map { Array($0.utf8) }, to: &out)
        out.append(contentsOf: ",\"user_agent\":".utf8)
        Self.appendJSONString(userAgent.map { Array($0.utf8) }, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    func appendTarget(to out: inout [UInt8]) {
        out.append(contentsOf: path.utf8)
        guard let rawQuery else { return }
        out.append(UInt8(ascii: "?"))
        var start = rawQuery.startIndex
        while start <= rawQuery.endIndex {
            let end = rawQuery[start...].firstIndex(of: UInt8(ascii: "&")) ?? rawQuery.endIndex
            let part = rawQuery[start..<end]
            if let equals = part.firstIndex(of: UInt8(ascii: "=")),
                Self.isRedacted(name: part[..<equals])
            {
                out.append(contentsOf: part[...equals])
                out.append(contentsOf: "REDACTED".utf8)
            } else {
                out.append(contentsOf: part)
            }
            if end < rawQuery.endIndex { out.append(UInt8(ascii: "&")) }
            start = end + 1
        }
    }

    private static func orDash(_ text: String?) -> String {
        guard let text, !text.isEmpty else { return "-" }
        return text
    }

    static let redactedNames = Set(redactedParameters.map { Array($0.utf8) })

    static func isRedacted(name: ArraySlice<UInt8>) -> Bool {
        guard name.count <= 64 else { return false }
        if name.contains(UInt8(ascii: "%")) || name.contains(UInt8(ascii: "+")) {
            // Decoded as the application decodes names, so that whatever spelling reaches
            // it as `token` (`%74oken`, say) is redacted too.
            let text = String(
                decoding: PercentDecoder.form.decodeBytesLeniently(Array(name)), as: UTF8.self
            ).lowercased()
            return redactedParameters.contains(text)
        }
        return redactedNames.contains(
            name.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 })
    }

    private func appendSeconds(to out: inout [UInt8]) {
        let (whole, attoseconds) = duration.components
        let micros = Int(whole) * 1_000_000 + Int(attoseconds / 1_000_000_000_000)
        Self.appendInteger(micros / 1_000_000, to: &out)
        out.append(UInt8(ascii: "."))
        var fraction = micros % 1_000_000
        var digits = [UInt8](repeating: UInt8(ascii: "0"), count: 6)
        for index in stride(from: 5, through: 0, by: -1) {
            digits[index] = UInt8(ascii: "0") + UInt8(fraction % 10)
            fraction /= 10
        }
        out.append(contentsOf: digits)
    }

    static func appendInteger(_ value: Int, to out: inout [UInt8]) {
        if value < 0 {
            out.append(contentsOf: String(value).utf8)
            return
        }
        var digits: [UInt8] = []
        var rest = value
        repeat {
            digits.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        out.append(contentsOf: digits.reversed())
    }

    /// Printable ASCII other than `"` and `\\`: written as it is.
    @inline(__always)
    static func isPlain(_ bytes: [UInt8]) -> Bool {
        bytes.allSatisfy {
            $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\")
        }
    }

    /// The inside of a quoted field: as it is when plain, else escaped as the log is.
    static func appendQuotedBody(_ bytes: [UInt8], to out: inout [UInt8]) {
        if isPlain(bytes) {
            out.append(contentsOf: bytes)
            return
        }
        var escaped = LogText.escaped(String(decoding: bytes, as: UTF8.self), quoting: true)
        if escaped.hasPrefix("\""), escaped.hasSuffix("\""), escaped.count >= 2 {
            escaped = String(escaped.dropFirst().dropLast())
        }
        out.append(contentsOf: escaped.utf8)
    }

    static func appendJSONString(_ bytes: [UInt8]?, to out: inout [UInt8]) {
        guard let bytes else {
            out.append(contentsOf: "null".utf8)
            return
        }
        if isPlain(bytes) {
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: bytes)
            out.append(UInt8(ascii: "\""))
        } else {
            out.append(contentsOf: LogText.jsonString(String(decoding: bytes, as: UTF8.self)).utf8)
        }
    }
}
