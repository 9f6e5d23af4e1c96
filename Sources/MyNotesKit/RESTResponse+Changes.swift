import Foundation

extension RESTResponse {
    /// A change as `GET /api/v1/changes` and the stream's `data:` lines carry it.
    struct WireChange: Decodable {
        var cursor: String
        var type: String
        var id: Int
        var version: Int
        var note: WireNote?

        func change() throws(NotesClientError) -> NoteChange {
            guard let kind = NoteChange.Kind(rawValue: type) else {
                throw .invalidResponse(
                    .malformed(format: .json, detail: "unknown change type '\(type)'"))
            }
            let etag = NoteChange.etag(id: id, version: version)
            var versioned: VersionedNote?
            if kind != .deleted {
                guard let note else {
                    throw .invalidResponse(
                        .malformed(format: .json, detail: "a \(type) change without its note"))
                }
                versioned = try note.versioned(etag: etag)
            }
            return NoteChange(
                kind: kind, id: id, version: version, note: versioned,
                cursor: ChangeCursor(cursor))
        }

        /// One change from a stream event's data.
        static func decode(_ data: String) throws(NotesClientError) -> NoteChange {
            do {
                return try JSONDecoder().decode(WireChange.self, from: Data(data.utf8)).change()
            } catch let error as NotesClientError {
                throw error
            } catch {
                throw .invalidResponse(.malformed(format: .json, detail: String(describing: error)))
            }
        }
    }

    struct WireChangePage: Decodable {
        var changes: [WireChange]
        var cursor: String
        var hasMore: Bool

        func page() throws(NotesClientError) -> ChangePage {
            var result: [NoteChange] = []
            for change in changes { result.append(try change.change()) }
            return ChangePage(changes: result, cursor: ChangeCursor(cursor), hasMore: hasMore)
        }
    }
}
