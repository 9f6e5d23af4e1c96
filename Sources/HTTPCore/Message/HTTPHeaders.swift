/// An ordered list of header fields with case-insensitive lookup.
///
/// ```swift
/// var headers = HTTPHeaders()
/// headers.add("Content-Type", "text/plain")
/// headers["content-type"]  // "text/plain"
/// ```
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    public typealias Field = (name: String, value: String)
    private var fields: [Field] = []

    public init() {}
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }

    /// Appends a field, keeping any others of the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    /// The value of the last field with this name, compared ASCII-case-insensitively.
    /// Setting replaces every field of that name.
    public subscript(name: String) -> String? {
        get {
            fields.last { $0.name.utf8.elementsEqual(name.utf8, by: Self.asciiCaseInsensitive) }?
                .value
        }
        set {
            fields.removeAll {
                $0.name.utf8.elementsEqual(name.utf8, by: Self.asciiCaseInsensitive)
            }
            if let newValue { add(name, newValue) }
        }
    }

    public var count: Int { fields.count }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    static func asciiCaseInsensitive(_ a: UInt8, _ b: UInt8) -> Bool {
        a == b || (a | 0x20 == b | 0x20 && (a | 0x20) >= 0x61 && (a | 0x20) <= 0x7A)
    }
}
