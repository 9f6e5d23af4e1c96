import Foundation
import MyNotesDomain

/// Strong entity tags for notes, `"<id>.<version>"`, and what an `If-Match` field asks
/// of a write (RFC 9110 §13.1.1, strong comparison).
///
/// ```swift
/// EntityTag.of(note)                                            // "\"12.3\""
/// EntityTag.precondition(ifMatch: "\"12.3\", \"12.4\"", id: id)  // .matches([3, 4])
/// EntityTag.precondition(ifMatch: "*", id: id)                  // .exists
/// ```
enum EntityTag {
    static func of(_ note: Note) -> String { "\"\(note.id).\(note.version)\"" }

    /// No `If-Match` is no precondition; `*` wants the note to exist; a list wants one
    /// of the versions its tags of this note name (none when no tag names this note).
    static func precondition(ifMatch: String?, id: NoteID) -> WritePrecondition {
        guard let ifMatch else { return .none }
        let trimmed = ifMatch.trimmingCharacters(in: .whitespaces)
        if trimmed == "*" { return .exists }
        var versions = Set<Int64>()
        for element in trimmed.split(separator: ",") {
            let tag = element.trimmingCharacters(in: .whitespaces)
            // Weak tags never match strongly; anything unquoted is not a tag.
            guard tag.count >= 2, tag.first == "\"", tag.last == "\"" else { continue }
            let parts = tag.dropFirst().dropLast().split(
                separator: ".", omittingEmptySubsequences: false)
            // A version is written as an ID is: positive decimal, no leading zero.
            guard parts.count == 2, NoteID(parts[0]) == id, let version = NoteID(parts[1])
            else { continue }
            versions.insert(version.value)
        }
        return .matches(versions)
    }
}
