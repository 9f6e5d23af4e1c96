import CH2O

/// A request's line and header fields, parsed by picohttpparser (h2o's parser) from the
/// bytes a connection received, and judged against the server's limits and framing rules
/// before any of its body is read.
struct RequestHead {
    /// How the body that follows the head is framed.
    enum Framing: Equatable {
        case none
        case length(Int)
        case chunked
    }

    /// What the bytes received so far amount to.
    enum Outcome {
        /// Not all of the head has arrived.
        case incomplete
        /// A complete head, `length` bytes long, judged acceptable.
        case complete(RequestHead, length: Int)
        /// A head to answer with this status, and close the connection after.
        case refused(HTTPStatus)
    }

    /// What a head is judged against: the parts of ``ServerConfiguration`` that bound it.
    struct Limits {
        var maxRequestTargetBytes: Int
        var maxHeaderBytes: Int
        var maxBodyBytes: Int
        var allowedHosts: AllowedHosts

        init(_ configuration: ServerConfiguration) {
            maxRequestTargetBytes = configuration.maxRequestTargetBytes
            maxHeaderBytes = configuration.maxHeaderBytes
            maxBodyBytes = configuration.maxBodyBytes
            allowedHosts = configuration.allowedHosts
        }
    }

    /// More header lines than any real client sends; picohttpparser fails past it.
    static let maxFields = 128

    let method: HTTPMethod
    let target: [UInt8]
    let headers: HTTPHeaders
    /// 0 for HTTP/1.0, 1 for HTTP/1.1.
    let minorVersion: Int
    let framing: Framing
    /// The client sent `Expect: 100-continue`: it waits for an invitation to send its body.
    let expectsContinue: Bool
    /// The client wants the connection kept after the answer.
    let keepAlive: Bool

    /// Parses the head at the start of `bytes`. `previousLength` is how many of these bytes
    /// the last incomplete attempt saw (picohttpparser resumes its scan there).
    static func parse(
        _ bytes: UnsafeRawBufferPointer, previousLength: Int, limits: ServerConfiguration
    ) -> Outcome {
        parse(bytes, previousLength: previousLength, limits: Limits(limits))
    }

    /// Parses the head at the start of `bytes`, judged against `limits`; see above.
    static func parse(
        _ bytes: UnsafeRawBufferPointer, previousLength: Int, limits: Limits
    ) -> Outcome {
        var method: UnsafePointer<CChar>?
        var methodLength = 0
        var path: UnsafePointer<CChar>?
        var pathLength = 0
        var minorVersion: Int32 = 0
        var count = maxFields
        return withUnsafeTemporaryAllocation(of: phr_header.self, capacity: maxFields) { fields in
            let parsed = phr_parse_request(
                bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count, &method,
                &methodLength, &path, &pathLength, &minorVersion, fields.baseAddress, &count,
                previousLength)
            if parsed == -2 {
                return tooLong(bytes, limits: limits).map { .refused($0) } ?? .incomplete
            }
            // -1: not HTTP/1.x, a field name that is no token (whitespace before the
            // colon), a control byte in a value (NUL, a bare CR: RFC 9112 §5.5), too many
            // fields. An over-long head that is malformed too is still over-long.
            guard parsed > 0, let method, let path else {
                return .refused(tooLong(bytes, limits: limits) ?? .badRequest)
            }
            if pathLength > limits.maxRequestTargetBytes { return .refused(.uriTooLong) }
            var headers = HTTPHeaders()
            var headerBytes = 0
            for field in fields.prefix(count) {
                // A line that begins with whitespace folds into the previous field
                // (obs-fold), which RFC 9112 §5.2 lets a server refuse: some parsers join
                // the lines and others do not.
                guard let name = field.name else { return .refused(.badRequest) }
                headers.add(
                    string(name, field.name_len),
                    field.value.map { string($0, field.value_len) } ?? "")
                headerBytes += field.name_len + field.value_len + 4
            }
            if headerBytes > limits.maxHeaderBytes {
                return .refused(.requestHeaderFieldsTooLarge)
            }
            let version = minorVersion == 0 ? "HTTP/1.0" : "HTTP/1.1"
            if HeaderValidation.isMalformed(headers, version: version) {
                return .refused(.badRequest)
            }
            if !limits.allowedHosts.admits(headers) { return .refused(.misdirectedRequest) }
            let framing: Framing
            if headers["Transfer-Encoding"] != nil {
                framing = .chunked  // exactly one `chunked`: HeaderValidation checked
            } else if let text = headers["Content-Length"] {
                // Digits only (HeaderValidation); too many of them is too large.
                guard let length = Int(text.trimmingCharacters(in: " \t")) else {
                    return .refused(.contentTooLarge)
                }
                if length > limits.maxBodyBytes { return .refused(.contentTooLarge) }
                framing = length > 0 ? .length(length) : .none
            } else {
                framing = .none
            }
            let connection = headers["Connection"]?.lowercased() ?? ""
            let keepAlive =
                minorVersion == 0
                ? connection.contains("keep-alive") : !connection.contains("close")
            let head = RequestHead(
                method: HTTPMethod(rawValue: string(method, methodLength)),
                target: Array(UnsafeRawBufferPointer(start: path, count: pathLength)),
                headers: headers, minorVersion: Int(minorVersion), framing: framing,
                expectsContinue: headers["Expect"]?.lowercased() == "100-continue",
                keepAlive: keepAlive)
            return .complete(head, length: Int(parsed))
        }
    }

    /// Whether the bytes received already exceed what a head may hold: 414 when the
    /// request line alone is too long, 431 when the fields are; `nil` while within bounds.
    private static func tooLong(
        _ bytes: UnsafeRawBufferPointer, limits: Limits
    ) -> HTTPStatus? {
        // The method and the version around the target take a few bytes more.
        let lineLimit = limits.maxRequestTargetBytes + 64
        // Until the request line ends no field has begun: only the line's limit applies
        // (a long target arriving in several reads is not taken for long fields).
        guard let lineEnd = bytes.prefix(lineLimit + 1).firstIndex(of: UInt8(ascii: "\n"))
        else { return bytes.count > lineLimit ? .uriTooLong : nil }
        // Each field costs its line's bytes; the limit counts 4 more per field than the
        // name and value, which covers ": " and CRLF.
        if bytes.count > lineEnd + limits.maxHeaderBytes + 4 {
            return .requestHeaderFieldsTooLarge
        }
        return nil
    }

    private static func string(_ pointer: UnsafePointer<CChar>, _ count: Int) -> String {
        String(decoding: UnsafeRawBufferPointer(start: pointer, count: count), as: UTF8.self)
    }
}
