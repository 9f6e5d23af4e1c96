/// A note's ID as both APIs write it: decimal digits, no sign, no leading zero, no
/// spaces, within `Int64`. Anything else names no note.
///
/// ```swift
/// NoteID("12")?.value  // 12
/// NoteID("012")        // nil
/// ```
package struct NoteID: Sendable, Hashable {
    package let value: Int64

    package init?(_ text: some StringProtocol) {
        guard let first = text.utf8.first, first != UInt8(ascii: "0"),
            text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let value = Int64(text)
        else { return nil }
        self.value = value
    }
}
