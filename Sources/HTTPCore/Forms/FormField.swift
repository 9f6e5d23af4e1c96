/// One `name=value` pair of a query string or form body, as decoded bytes.
///
/// Bytes, not strings: whether they are valid UTF-8 is for the application to judge
/// (the legacy protocol answers invalid UTF-8 with its own result code).
public struct FormField: Sendable, Hashable {
    public var name: [UInt8]
    public var value: [UInt8]

    public init(name: [UInt8], value: [UInt8]) {
        self.name = name
        self.value = value
    }

    public init(_ name: String, _ value: String) {
        self.init(name: Array(name.utf8), value: Array(value.utf8))
    }
}
