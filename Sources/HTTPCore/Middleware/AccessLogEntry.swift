import Logging

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
        guard let rawQuery else { return path }
        let query = String(decoding: rawQuery, as: UTF8.self)
        let parts = query.split(separator: "&", omittingEmptySubsequences: false).map {
            part -> String in
            let name = part.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            guard part.contains("="),
                Self.redactedParameters.contains(Self.decoded(name).lowercased())
            else { return String(part) }
            return name + "=REDACTED"
        }
        return path + "?" + parts.joined(separator: "&")
    }

    /// One line in the combined log format, with the duration in seconds and the request
    /// ID after it: `addr - - [time] "GET /p?q" 200 12 "referer" "agent" 0.000412 id`.
    public var combinedLine: String {
        func quoted(_ text: String?) -> String {
            guard let text, !text.isEmpty else { return "\"-\"" }
            let escaped = LogText.escaped(text, quoting: true)
            return escaped.hasPrefix("\"") ? escaped : "\"" + escaped + "\""
        }
        let bytesText = bytes.map(String.init) ?? "-"
        return (clientAddress ?? "-") + " - - [" + LogText.timestamp(milliseconds: time) + "] "
            + quoted(method + " " + target) + " " + String(status) + " " + bytesText + " "
            + quoted(referer) + " " + quoted(userAgent) + " " + seconds + " "
            + LogText.escaped(requestID ?? "-", quoting: true)
    }

    /// One JSON object on one line.
    public var jsonLine: String {
        func string(_ text: String?) -> String { text.map(LogText.jsonString) ?? "null" }
        return "{\"time\":\"" + LogText.timestamp(milliseconds: time) + "\",\"client\":"
            + string(clientAddress) + ",\"method\":" + string(method) + ",\"path\":"
            + string(target) + ",\"status\":" + String(status) + ",\"bytes\":"
            + (bytes.map(String.init) ?? "null") + ",\"duration_seconds\":" + seconds
            + ",\"request_id\":" + string(requestID) + ",\"referer\":" + string(referer)
            + ",\"user_agent\":" + string(userAgent) + "}"
    }

    private var seconds: String {
        let (whole, attoseconds) = duration.components
        let micros = Int(whole) * 1_000_000 + Int(attoseconds / 1_000_000_000_000)
        let fraction = String(micros % 1_000_000)
        return String(micros / 1_000_000) + "."
            + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    /// A query name percent-decoded (and `+` as space), so `%74oken` is still `token`.
    static func decoded(_ name: String) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(name.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%"), let high = iterator.next(), let low = iterator.next(),
                let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
            } else {
                bytes.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
