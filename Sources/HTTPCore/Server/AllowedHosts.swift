/// The `Host` values a server answers; a request naming any other is refused with
/// 421 Misdirected Request before its body is read.
///
/// DNS rebinding is why: a web page on `evil.example` can have its name resolve to
/// `127.0.0.1` and then read a loopback server's answers as its own origin's. Its requests
/// still say `Host: evil.example`, so a server that answers only its own names is out of
/// its reach.
///
/// A name matches whatever the port (`localhost` admits `localhost:8080`); a name written
/// with a port (`localhost:8080`) admits only that port. Names compare ASCII
/// case-insensitively, a final dot ignored; IPv6 addresses go in brackets (`[::1]`). A
/// request without `Host` (HTTP/1.0; HTTP/1.1 requires one) names nothing and is admitted.
///
/// ```swift
/// var configuration = ServerConfiguration()
/// configuration.allowedHosts = .defaults(listeningOn: "127.0.0.1", publicHost: "notes.example.com")
/// configuration.allowedHosts.admits(host: "localhost:8080")  // true
/// configuration.allowedHosts.admits(host: "evil.example")    // false
/// ```
public struct AllowedHosts: Sendable, Equatable, CustomStringConvertible {
    private struct Entry: Hashable, Sendable {
        var name: String
        var port: String?

        /// Whether `host` is this entry written exactly: its name, then its port (or, for
        /// a name without one, nothing or `:` and up to 5 digits).
        func admitsVerbatim(_ host: String) -> Bool {
            let bytes = host.utf8
            guard bytes.starts(with: name.utf8) else { return false }
            let rest = bytes.dropFirst(name.utf8.count)
            if let port {
                return rest.first == UInt8(ascii: ":") && rest.dropFirst().elementsEqual(port.utf8)
            }
            if rest.isEmpty { return true }
            let digits = rest.dropFirst()
            return rest.first == UInt8(ascii: ":") && !digits.isEmpty && digits.count <= 5
                && digits.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        }
    }

    private var entries: Set<Entry>?

    /// Every `Host` value; what ``ServerConfiguration`` starts with.
    public static let any = AllowedHosts(entries: nil)

    private init(entries: Set<Entry>?) {
        self.entries = entries
    }

    /// Exactly `names` (`name`, `name:port`, `[v6]`, `[v6]:port`); `*` among them admits
    /// every host. Returns `nil` when a name is not a valid host.
    ///
    /// ```swift
    /// AllowedHosts(["notes.example.com", "localhost:8080"])
    /// AllowedHosts(["*"])  // .any
    /// ```
    public init?(_ names: some Sequence<String>) {
        var entries = Set<Entry>()
        for name in names {
            if name == "*" {
                self = .any
                return
            }
            guard let entry = Self.parse(name) else { return nil }
            entries.insert(entry)
        }
        self.entries = entries
    }

    /// The names a server listening on `host` is reached by from this machine: that
    /// address (unless it is a wildcard such as `0.0.0.0`), `localhost`, `127.0.0.1` and
    /// `[::1]`, and `publicHost`, the name clients use when a proxy or DNS stands between.
    public static func defaults(listeningOn host: String, publicHost: String? = nil)
        -> AllowedHosts
    {
        let bracketed = { (name: String) in
            name.contains(":") && !name.hasPrefix("[") ? "[\(name)]" : name
        }
        var names = ["localhost", "127.0.0.1", "[::1]"]
        if !["0.0.0.0", "[::]"].contains(bracketed(host)) { names.append(bracketed(host)) }
        if let publicHost { names.append(bracketed(publicHost)) }
        return AllowedHosts(entries: Set(names.compactMap(parse)))
    }

    /// Whether a request whose `Host` field is `host` is answered.
    public func admits(host: String?) -> Bool {
        guard let entries else { return true }
        guard let host else { return true }
        // Nearly every request names a host as listed, in lower case: matched on its bytes,
        // without parsing it into a new string.
        if entries.contains(where: { $0.admitsVerbatim(host) }) { return true }
        guard let entry = Self.parse(host) else { return false }
        return entries.contains(entry) || entries.contains(Entry(name: entry.name, port: nil))
    }

    /// The `Host` field of `headers`, looked up only when there is a list to check.
    func admits(_ headers: HTTPHeaders) -> Bool {
        entries == nil || admits(host: headers["Host"])
    }

    /// `*`, or the names, sorted and comma-separated, as `--allowed-hosts` takes them.
    public var description: String {
        guard let entries else { return "*" }
        return entries.map { entry in entry.port.map { "\(entry.name):\($0)" } ?? entry.name }
            .sorted().joined(separator: ",")
    }

    /// `uri-host [":" port]` (RFC 9110 §7.2), the name lowercased and without a final dot;
    /// `nil` when it is not one.
    private static func parse(_ text: String) -> Entry? {
        var name: Substring
        var rest: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            name = text[...close]
            rest = text[text.index(after: close)...]
            guard
                name.dropFirst().dropLast().allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }),
                name.count > 2
            else { return nil }
        } else if let colon = text.firstIndex(of: ":") {
            name = text[..<colon]
            rest = text[colon...]
        } else {
            name = text[...]
            rest = ""
        }
        var port: String?
        if !rest.isEmpty {
            guard rest.first == ":" else { return nil }
            let digits = rest.dropFirst()
            guard digits.count <= 5, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                return nil
            }
            port = digits.isEmpty ? nil : String(digits)
        }
        if name.hasSuffix("."), name.count > 1 { name = name.dropLast() }
        guard !name.isEmpty, name.utf8.allSatisfy(isHostByte) else { return nil }
        return Entry(name: name.lowercased(), port: port)
    }

    /// reg-name's unreserved and sub-delimiter characters, `%` for its escapes, and the
    /// brackets and colons of an IP literal. Not `*`: `*.example.com` is no wildcard here,
    /// and is refused rather than matching nothing.
    private static func isHostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: "-._~!$&'()+,;=%[]:".utf8.contains(byte)
        }
    }
}
