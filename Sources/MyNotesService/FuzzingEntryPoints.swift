import HTTPCore
import MyNotesAPI
import MyNotesDomain
import MyNotesProtocol

/// The service's parsers of outside input that are not public API, as the libFuzzer
/// targets in `Fuzz/` call them. Package access: no client of the library sees them.
///
/// ```swift
/// FuzzingEntryPoints.cursor("bm90IGEgY3Vyc29y")  // nil: "not a cursor" in base64url
/// ```
package enum FuzzingEntryPoints {
    /// Reads a note's JSON body as `POST /api/v1/notes` does (its members' rules aside):
    /// `nil` when the API would refuse the body.
    package static func noteBody(_ request: HTTPRequest) -> (content: String, date: String?)? {
        guard
            let body = try? JSONRequestBody.decode(
                APINewNote.self, request, allowed: NoteContentMember.allowed)
        else { return nil }
        return (body.content, body.date)
    }

    /// Reads a sign-in's JSON body as `POST /api/v1/sessions` does: `nil` when the API
    /// would refuse the body.
    package static func credentials(_ request: HTTPRequest) -> (email: String, password: String)? {
        guard
            let body = try? JSONRequestBody.decode(
                APICredentials.self, request, allowed: ["email", "password"])
        else { return nil }
        return (body.email, body.password)
    }

    /// A note's content as both APIs validate it; `nil` when refused.
    package static func noteContent(_ text: String) -> String? {
        (try? NoteContent(validating: text))?.text
    }

    /// A note's date as both APIs validate it; `nil` when refused.
    package static func noteDate(_ text: String) -> NoteDate? {
        try? NoteDate(validating: text)
    }

    /// The position a REST `cursor` names; `nil` for one the API did not make.
    package static func cursor(_ text: String) -> NotePosition? {
        NoteCursor.decode(text)
    }

    /// The `cursor` the REST API sends for a position.
    package static func cursorText(_ position: NotePosition) -> String {
        NoteCursor.encode(position)
    }

    /// What an `If-Match` value asks of a write to note `id` (a note ID's text).
    package static func precondition(ifMatch: String?, id: String) -> WritePrecondition? {
        NoteID(id).map { EntityTag.precondition(ifMatch: ifMatch, id: $0) }
    }
}
