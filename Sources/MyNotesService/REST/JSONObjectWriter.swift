import MyNotesProtocol
import TextEscaping

/// Writes one JSON object, member by member, straight into bytes, in the order given
/// (clients and documentation read more easily when the order is stable).
///
/// ```swift
/// var writer = JSONObjectWriter()
/// writer.integer("id", 12)
/// writer.string("content", "Buy milk")
/// writer.finish()  // {"id":12,"content":"Buy milk"}
/// ```
///
/// Nested objects are written into the same buffer, so that a page of notes is written
/// once, not once per note and again into the page:
///
/// ```swift
/// writer.objects("notes", page) { note, object in note.write(to: &object) }
/// ```
struct JSONObjectWriter {
    private var bytes: [UInt8]
    /// Where this object's `{` is in `bytes`: a nested object shares its parent's buffer.
    private let start: Int

    /// A writer whose buffer holds `capacity` bytes before it grows: a page of long notes
    /// is megabytes, each doubling a copy of them.
    init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
        start = 0
        bytes.append(UInt8(ascii: "{"))
    }

    /// An object that goes on in `buffer`, which it holds until ``closeNested(into:)``
    /// hands it back (arrays swap in constant time).
    private init(continuing buffer: inout [UInt8]) {
        bytes = []
        swap(&bytes, &buffer)
        start = bytes.count
        bytes.append(UInt8(ascii: "{"))
    }

    mutating func string(_ key: String, _ value: String?) {
        member(key)
        if let value { JSONText.appendString(value, to: &bytes) } else { null() }
    }

    /// A note's date, its digits written straight into the buffer (they need no escaping).
    mutating func date(_ key: String, _ value: NoteDate) {
        member(key)
        bytes.append(UInt8(ascii: "\""))
        value.appendText(to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func integer(_ key: String, _ value: Int64) {
        member(key)
        bytes.append(contentsOf: String(value).utf8)
    }

    mutating func boolean(_ key: String, _ value: Bool) {
        member(key)
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// A member whose value is an object, which `write` fills.
    mutating func object(_ key: String, _ write: (inout JSONObjectWriter) -> Void) {
        member(key)
        nested(write)
    }

    /// A member whose value is an array of objects, one per element, each filled by
    /// `write`.
    mutating func objects<Element>(
        _ key: String, _ elements: some Sequence<Element>,
        _ write: (Element, inout JSONObjectWriter) -> Void
    ) {
        member(key)
        bytes.append(UInt8(ascii: "["))
        var first = true
        for element in elements {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            nested { write(element, &$0) }
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// The object's bytes; the writer is used up (so the closing brace needs no copy).
    consuming func finish() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    private mutating func nested(_ write: (inout JSONObjectWriter) -> Void) {
        var child = JSONObjectWriter(continuing: &bytes)
        write(&child)
        child.closeNested(into: &bytes)
    }

    private mutating func closeNested(into parent: inout [UInt8]) {
        bytes.append(UInt8(ascii: "}"))
        swap(&bytes, &parent)
    }

    private mutating func null() { bytes.append(contentsOf: "null".utf8) }

    private mutating func member(_ key: String) {
        if bytes.count > start + 1 { bytes.append(UInt8(ascii: ",")) }
        JSONText.appendString(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }
}
