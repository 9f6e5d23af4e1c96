import HTTPCore
import MyNotesDomain
import MyNotesProtocol

/// The service's parsers of outside input that are not public API, as the libFuzzer
/// targets in `Fuzz/` call them. Package access: no client of the library sees them.
///
/// ```swift
/// FuzzingEntryPoints.cursor("bm90IGEgY3Vyc29y")  // nil: "not a cursor" in base64url
/// ```
package enum FuzzingEntryPoints {
    /// Reads a request's JSON body as the REST API does: checked against `allowed`, then
    /// each of `fields` as a string. `nil` when the API would refuse the body.
    package static func jsonBody(
        _ request: HTTPRequest, allowed: Set<String>, fields: [String]
    ) -> [String: String]? {
        do {
            let body = try JSONRequestBody(request, allowed: allowed)
            var values: [String: String] = [:]
            for field in fields { values[field] = try body.string(field) }
            return values
        } catch {
            return nil
        }
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
