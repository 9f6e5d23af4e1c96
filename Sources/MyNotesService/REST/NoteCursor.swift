import Foundation
import MyNotesDomain
import MyNotesProtocol

/// The opaque `cursor` of `GET /api/v1/notes`: the position of the last note of the
/// previous page, in base64url. The next page starts strictly after it, so notes
/// added or removed meanwhile never make a page repeat or skip one that remains.
///
/// ```swift
/// let text = NoteCursor.encode(note.position)
/// NoteCursor.decode(text) == note.position  // true
/// ```
enum NoteCursor {
    static func encode(_ position: NotePosition) -> String {
        let plain = "\(position.sortKey)|\(position.id)"
        return Data(plain.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// `nil` for anything ``encode(_:)`` did not make.
    static func decode(_ text: String) -> NotePosition? {
        guard !text.isEmpty, text.utf8.count <= 64,
            text.utf8.allSatisfy({ byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
                    || (0x61...0x7A).contains(byte) || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: "_")
            })
        else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+")
            .replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        guard let data = Data(base64Encoded: base64),
            let plain = String(data: data, encoding: .utf8)
        else { return nil }
        let parts = plain.split(separator: "|", omittingEmptySubsequences: false)
        guard parts.count == 2, let date = NoteDate(String(parts[0])), date.time != nil,
            let id = NoteID(parts[1])
        else { return nil }
        return NotePosition(sortKey: date.description, id: id.value)
    }
}
