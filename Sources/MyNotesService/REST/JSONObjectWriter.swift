/// Writes one JSON object, member by member, straight into bytes, in the order given
/// (clients and documentation read more easily when the order is stable).
///
/// ```swift
/// var writer = JSONObjectWriter()
/// writer.integer("id", 12)
/// writer.string("content", "Buy milk")
/// writer.finish()  // {"id":12,"content":"Buy milk"}
/// ```
struct JSONObjectWriter {
    private var bytes: [UInt8]

    /// A writer whose buffer holds `capacity` bytes before it grows: a page of long notes
    /// is megabytes, each doubling a copy of them.
    init(capacity: Int = 0) {
        bytes = [UInt8(ascii: "{")]
        bytes.reserveCapacity(capacity)
    }

    mutating func string(_ key: String, _ value: String?) {
        member(key)
        if let value { JSONText.appendString(value, to: &bytes) } else { null() }
    }

    mutating func integer(_ key: String, _ value: Int64) {
        member(key)
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A member whose value is already JSON (an array or object written elsewhere).
    mutating func raw(_ key: String, _ json: [UInt8]) {
        member(key)
        bytes.append(contentsOf: json)
    }

    /// The object's bytes; the writer is used up (so the closing brace needs no copy).
    consuming func finish() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    private mutating func null() { bytes.append(contentsOf: "null".utf8) }

    private mutating func member(_ key: String) {
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        JSONText.appendString(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }
}
