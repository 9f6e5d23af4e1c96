import Foundation
import Storage

/// Strong entity tags for notes, `"<id>.<version>"`, and the `If-Match` check
/// (RFC 9110 §13.1.1, strong comparison).
///
/// ```swift
/// EntityTag.of(note)                                // "\"12.3\""
/// EntityTag.versions(in: "\"12.3\", \"12.4\"", id: 12)  // .some([3, 4])
/// ```
enum EntityTag {
    /// What an `If-Match` field asks for.
    enum Condition: Equatable {
        /// No `If-Match`: write unconditionally.
        case none
        /// `*`: the note must exist.
        case any
        /// One of these versions of this note; empty when no tag names this note.
        case versions(Set<Int64>)
    }

    static func of(_ note: Note) -> String { "\"\(note.id).\(note.version)\"" }

    static func condition(ifMatch: String?, id: Int64) -> Condition {
        guard let ifMatch else { return .none }
        let trimmed = ifMatch.trimmingCharacters(in: .whitespaces)
        if trimmed == "*" { return .any }
        var versions = Set<Int64>()
        for element in trimmed.split(separator: ",") {
            let tag = element.trimmingCharacters(in: .whitespaces)
            // Weak tags never match strongly; anything unquoted is not a tag.
            guard tag.count >= 2, tag.first == "\"", tag.last == "\"" else { continue }
            let parts = tag.dropFirst().dropLast().split(
                separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, LegacyHandler.noteID(String(parts[0])) == id,
                let version = LegacyHandler.noteID(String(parts[1]))
            else { continue }
            versions.insert(version)
        }
        return .versions(versions)
    }
}
