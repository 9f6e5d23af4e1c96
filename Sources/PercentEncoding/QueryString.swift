/// An ordered list of name–value pairs that encodes each name and each value on
/// its own: the safe way to build a query string or a form body.
///
/// ```swift
/// var query = QueryString()
/// query.append("action", "add")
/// query.append("content", "salt & pepper = 1+1")
/// query.encoded(using: .queryValue)  // "action=add&content=salt%20%26%20pepper%20%3D%201%2B1"
/// query.encoded(using: .form)        // "action=add&content=salt+%26+pepper+%3D+1%2B1"
/// ```
///
/// Pairs keep the order they were appended in, so the output is deterministic.
public struct QueryString: Sendable, Hashable {
    /// One name–value pair.
    public struct Item: Sendable, Hashable {
        /// The name, as text (not encoded).
        public var name: String
        /// The value, as text (not encoded).
        public var value: String

        /// Creates a pair: `QueryString.Item(name: "q", value: "a&b")`.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The pairs, in order.
    public var items: [Item]

    /// Creates a query from pairs.
    public init(_ items: [Item] = []) {
        self.items = items
    }

    /// Parses an encoded query or form body leniently, as PHP does: `&` separates
    /// pairs, the first `=` separates name from value, malformed escapes stay literal.
    ///
    /// - Parameter decoder: ``PercentDecoder/form`` for form bodies (`+` is a space),
    ///   ``PercentDecoder/url`` where `+` is a plus.
    public init(parsing encoded: String, decoder: PercentDecoder = .form) {
        var items: [Item] = []
        for pair in encoded.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = decoder.decodeLeniently(String(parts[0]))
            let value = parts.count > 1 ? decoder.decodeLeniently(String(parts[1])) : ""
            items.append(Item(name: name, value: value))
        }
        self.items = items
    }

    /// Appends a pair; a name may occur more than once.
    public mutating func append(_ name: String, _ value: String) {
        items.append(Item(name: name, value: value))
    }

    /// The value of the last pair with that name (the one PHP would read).
    public subscript(name: String) -> String? {
        items.last { $0.name == name }?.value
    }

    /// The pairs as `name=value&…`, each name and value encoded by `encoder`.
    public func encoded(using encoder: PercentEncoder) -> String {
        items.map { encoder.encode($0.name) + "=" + encoder.encode($0.value) }
            .joined(separator: "&")
    }
}
