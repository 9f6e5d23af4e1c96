import Foundation
import MyNotesAPI

/// The SDK's parsers of server answers, as the libFuzzer targets in `Fuzz/` call them.
/// Package access: no app that uses the SDK sees them.
///
/// ```swift
/// try FuzzingEntryPoints.legacyNotes(Data(#"{"ResultCode":0,"Record":[]}"#.utf8), format: .json)
/// // []
/// ```
package enum FuzzingEntryPoints {
    /// A `webservice.php` answer as the SDK reads it: its notes (`nil` when it lists
    /// none), or the typed error of its `ResultCode` or of its malformation.
    package static func legacyNotes(_ body: Data, format: WireFormat) throws(NotesClientError)
        -> [Note]?
    {
        try LegacyResponse.decode(body, format: format).validated().notes
    }

    /// A REST note answer (`200` with the note), with its `ETag`.
    package static func restNote(_ body: Data, etag: String?) throws(NotesClientError)
        -> VersionedNote
    {
        try RESTResponse.note(
            HTTPAnswer(status: 200, headers: etag.map { ["etag": $0] } ?? [:], body: body),
            expecting: 200)
    }

    /// A REST page of notes (`200`).
    package static func restPage(_ body: Data) throws(NotesClientError) -> NotePage {
        try RESTResponse.decode(
            HTTPAnswer(status: 200, headers: [:], body: body), expecting: 200,
            as: APINotePage.self
        ).page()
    }

    /// The error a REST answer with an unexpected status means; `headers` in lower case.
    package static func restFailure(status: Int, headers: [String: String], body: Data)
        -> NotesClientError
    {
        RESTResponse.failure(HTTPAnswer(status: status, headers: headers, body: body))
    }

    /// A `Retry-After` value as a delay from `now`.
    package static func retryAfter(_ text: String, now: Date) -> Duration? {
        RESTResponse.retryAfter(text, now: now)
    }

    /// An RFC 3339 time of a REST note.
    package static func timestamp(_ text: String) -> Date? {
        RESTResponse.timestamp(text)
    }
}
