import Foundation
import MyNotesAPI

extension APIChange {
    /// The change as the SDK gives it, its note's `ETag` made from its ID and version.
    func change() throws(NotesClientError) -> NoteChange {
        guard let kind = NoteChange.Kind(rawValue: type) else {
            throw .invalidResponse(
                .malformed(format: .json, detail: "unknown change type '\(type)'"))
        }
        let etag = NoteChange.etag(id: Int(id), version: Int(version))
        var versioned: VersionedNote?
        if kind != .deleted {
            guard let note else {
                throw .invalidResponse(
                    .malformed(format: .json, detail: "a \(type) change without its note"))
            }
            versioned = try note.versioned(etag: etag)
        }
        return NoteChange(
            kind: kind, id: Int(id), version: Int(version), note: versioned,
            cursor: ChangeCursor(cursor))
    }

    /// One change from a stream event's data.
    static func decode(_ data: String) throws(NotesClientError) -> NoteChange {
        do {
            return try JSONDecoder().decode(APIChange.self, from: Data(data.utf8)).change()
        } catch let error as NotesClientError {
            throw error
        } catch {
            throw .invalidResponse(.malformed(format: .json, detail: String(describing: error)))
        }
    }
}
