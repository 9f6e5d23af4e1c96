import PercentEncoding

/// A complete HTTP request as the router sees it: the body has been read in full.
public struct HTTPRequest: Sendable {
    public var method: HTTPMethod
    /// The path as sent, still percent-encoded, without the query. Routes match it one
    /// segment at a time, each segment decoded on its own, so that an encoded `/` stays
    /// inside its segment: `/a%2Fb` is never `/a/b`, as a proxy's path rules would not
    /// take it either.
    public var rawPath: String
    /// The path percent-decoded as a whole, for messages and logs; routes match
    /// ``rawPath``. Decoded when read. Setting it (or making a request in code from a
    /// `path`) sets ``rawPath`` to that text as it is.
    public var path: String {
        get {
            String(decoding: PercentDecoder.url.decodeBytesLeniently(rawPath), as: UTF8.self)
        }
        set { rawPath = newValue }
    }
    /// The query string as sent, without the `?`, still encoded; `nil` when there is none.
    public var rawQuery: [UInt8]?
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// The peer's IP address in numeric form (`127.0.0.1`, `::1`), `nil` when unknown.
    /// It is the socket's peer: behind a proxy, the proxy's address.
    public var clientAddress: String? {
        get { peer?.text }
        set { peer = newValue.map(PeerAddress.init(text:)) }
    }
    var peer: PeerAddress?

    public init(
        method: HTTPMethod, path: String, rawQuery: [UInt8]? = nil,
        headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], clientAddress: String? = nil
    ) {
        self.method = method
        self.rawPath = path
        self.rawQuery = rawQuery
        self.headers = headers
        self.body = body
        self.peer = clientAddress.map(PeerAddress.init(text:))
    }

    /// Builds a request from the request target as it arrived on the wire (`/p/a/th?query`).
    public init(
        method: HTTPMethod, target: [UInt8], headers: HTTPHeaders, body: [UInt8],
        clientAddress: String? = nil
    ) {
        let question = target.firstIndex(of: UInt8(ascii: "?"))
        self.init(
            method: method,
            path: String(decoding: target[..<(question ?? target.endIndex)], as: UTF8.self),
            rawQuery: question.map { Array(target[($0 + 1)...]) },
            headers: headers,
            body: body,
            clientAddress: clientAddress)
    }

    /// The media type of the body, lowercased, without parameters.
    public var mediaType: Substring? {
        guard let contentType = headers["Content-Type"] else { return nil }
        let type = contentType.split(separator: ";", maxSplits: 1).first ?? ""
        return Substring(type.trimmingCharacters(in: " \t").lowercased())
    }
}

extension StringProtocol {
    func trimmingCharacters(in characters: String) -> Substring {
        var result = Substring(self)
        while let first = result.first, characters.contains(first) { result.removeFirst() }
        while let last = result.last, characters.contains(last) { result.removeLast() }
        return result
    }
}
