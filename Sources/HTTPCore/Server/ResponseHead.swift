/// The status line and header section of an answer, as sent: the responder's fields, the
/// ones every answer carries, and the framing fields the server alone decides.
struct ResponseHead {
    /// How the body after the head is framed.
    enum Framing: Equatable {
        /// No body may follow (1xx, 204, 304): no length either.
        case none
        /// `Content-Length`; for a HEAD request the length of the body a GET would get.
        case length(Int)
        /// `Transfer-Encoding: chunked`, for a streamed body to an HTTP/1.1 client.
        case chunked
        /// A streamed body to an HTTP/1.0 client, which cannot take chunks: it ends when
        /// the connection closes.
        case untilClose
    }

    /// Fields the server writes itself; a responder's own values for them are dropped, so
    /// that no answer can carry two framings.
    private static let serverFields: Set<String> = [
        "content-length", "transfer-encoding", "connection", "date",
    ]

    /// Whether a body may follow a head with this status (RFC 9110 §6.4.1).
    static func allowsBody(_ status: HTTPStatus) -> Bool {
        !(100..<200).contains(status.rawValue) && status != .noContent
            && status != .notModified
    }

    /// The framing of a whole (not streamed) body: its length, but none at all for 1xx and
    /// 204, which RFC 9110 §8.6 forbids it. A 304 says `Content-Length: 0`, as the
    /// earlier server's did, so that answers stay as they were.
    static func lengthFraming(status: HTTPStatus, count: Int) -> Framing {
        (100..<200).contains(status.rawValue) || status == .noContent ? .none : .length(count)
    }

    /// The head's bytes.
    static func bytes(
        _ response: HTTPResponse, framing: Framing, keepAlive: Bool, minorVersion: Int,
        date: [UInt8]
    ) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        out += "HTTP/1.1 \(response.status.rawValue) \(response.status.reasonPhrase)\r\n".utf8
        out += date
        for (name, value) in response.headers
        where !serverFields.contains(name.lowercased()) {
            append(name, value, to: &out)
        }
        for (name, value) in response.missingAlwaysSentFields {
            append(name, value, to: &out)
        }
        switch framing {
        case .none, .untilClose: break
        case .length(let length): out += "Content-Length: \(length)\r\n".utf8
        case .chunked: out += "Transfer-Encoding: chunked\r\n".utf8
        }
        if !keepAlive {
            out += "Connection: close\r\n".utf8
        } else if minorVersion == 0 {
            out += "Connection: keep-alive\r\n".utf8
        }
        out += "\r\n".utf8
        return out
    }

    private static func append(_ name: String, _ value: String, to out: inout [UInt8]) {
        out += name.utf8
        out += ": ".utf8
        out += value.utf8
        out += "\r\n".utf8
    }
}
