import Foundation
import HTTPCore
import Storage

extension RESTAPI {
    static let defaultPageSize = 50
    static let pageSizes = 1...200
    static let maximumQueryCharacters = 1_000

    /// `GET /api/v1/notes?limit=&cursor=&q=` → `200 {notes, nextCursor}`.
    func listNotes(_ request: HTTPRequest) throws(RESTProblem) -> HTTPResponse {
        let account = try authenticate(request)
        let query = Self.queryParameters(request)
        var page = NotePage(limit: Self.defaultPageSize)
        if let text = query["limit"] {
            guard let limit = Int(text), Self.pageSizes.contains(limit),
                text.utf8.allSatisfy({ (0x30...0x39).contains($0) })
            else { throw .badRequest(.invalidField("limit", .limitOutOfRange(Self.pageSizes))) }
            page.limit = limit
        }
        // An empty cursor is the first page, as an absent one: clients build the URL
        // from `nextCursor` without special-casing the start.
        if let text = query["cursor"], !text.isEmpty {
            guard let position = NoteCursor.decode(text) else {
                throw .badRequest(.invalidField("cursor", .invalidCursor))
            }
            page.after = position
        }
        if let text = query["q"] {
            // Code points, as the document's maxLength counts them.
            guard text.unicodeScalars.count <= Self.maximumQueryCharacters else {
                throw .badRequest(.invalidField("q", .queryTooLong(Self.maximumQueryCharacters)))
            }
            page.containing = text
        }
        // One more than asked tells whether another page follows without a second query.
        var probe = page
        probe.limit += 1
        let notes: [Note]
        do {
            notes = try store.notes(account: account.id, page: probe)
        } catch {
            throw .storeFailed
        }
        let shown = notes.prefix(page.limit)
        var array: [UInt8] = [UInt8(ascii: "[")]
        for (index, note) in shown.enumerated() {
            if index > 0 { array.append(UInt8(ascii: ",")) }
            array.append(contentsOf: note.json)
        }
        array.append(UInt8(ascii: "]"))
        var writer = JSONObjectWriter()
        writer.raw("notes", array)
        writer.string(
            "nextCursor",
            notes.count > page.limit ? shown.last.map { NoteCursor.encode($0.position) } : nil)
        return Self.json(.ok, writer.finish())
    }

    /// `POST /api/v1/notes` `{content, date?}` → `201` Note with `Location` and `ETag`.
    func createNote(_ request: HTTPRequest) throws(RESTProblem) -> HTTPResponse {
        let account = try authenticate(request)
        let body = try JSONRequestBody(request, allowed: ["content", "date"])
        let content = try Self.content(body.string("content"), required: true)
        let date = try Self.date(body.string("date")) ?? Self.now()
        let note: Note
        do {
            note = try store.addNote(
                NoteDraft(date: date, content: content ?? ""), account: account.id,
                quota: configuration.quota)
        } catch .quotaExceeded(let limit) {
            throw RESTProblem(.init(rawValue: 403), code: .quotaExceeded, .quotaExceeded(limit))
        } catch {
            throw .storeFailed
        }
        var response = Self.noteResponse(.created, note)
        response.headers["Location"] = "/api/v1/notes/\(note.id)"
        return response
    }

    /// `GET /api/v1/notes/{id}` → `200` Note with `ETag`.
    func getNote(_ request: HTTPRequest, _ context: RequestContext) throws(RESTProblem)
        -> HTTPResponse
    {
        let account = try authenticate(request)
        let id = try Self.noteID(context)
        let found: Note?
        do {
            found = try store.note(id: id, account: account.id)
        } catch {
            throw .storeFailed
        }
        guard let found else { throw .noSuchNote }
        return Self.noteResponse(.ok, found)
    }

    /// `PUT` (both fields required) or `PATCH` (either) `/api/v1/notes/{id}`, honouring `If-Match`.
    func writeNote(
        _ request: HTTPRequest, _ context: RequestContext, partial: Bool
    ) throws(RESTProblem) -> HTTPResponse {
        let account = try authenticate(request)
        let id = try Self.noteID(context)
        let body = try JSONRequestBody(request, allowed: ["content", "date"])
        let content = try Self.content(body.string("content"), required: !partial)
        let date = try Self.date(body.string("date"))
        if !partial, date == nil {
            throw RESTProblem(.unprocessableContent, code: .missingDate, .missingField("date"))
        }
        let condition = EntityTag.condition(ifMatch: request.headers["If-Match"], id: id)
        // A PATCH merges into the note as read; if another write lands in between, the
        // versioned write misses and, without If-Match, the merge is simply redone.
        for _ in 0..<3 {
            let current = try Self.read(store, id: id, account: account.id)
            let expected: Int64
            switch condition {
            case .none, .any: expected = current.version
            case .versions(let versions):
                guard versions.contains(current.version) else {
                    throw RESTProblem(.preconditionFailed, .preconditionFailed)
                }
                expected = current.version
            }
            let draft = NoteDraft(date: date ?? current.date, content: content ?? current.content)
            let outcome: ConditionalWrite<Note>
            do {
                outcome = try store.updateNote(
                    id: id, account: account.id, with: draft, ifVersion: expected)
            } catch {
                throw .storeFailed
            }
            switch outcome {
            case .applied(let note): return Self.noteResponse(.ok, note)
            case .notFound: throw .noSuchNote
            case .versionMismatch:
                if case .versions = condition {
                    throw RESTProblem(.preconditionFailed, .preconditionFailed)
                }
            }
        }
        throw RESTProblem(.preconditionFailed, .preconditionFailed)
    }

    /// `DELETE /api/v1/notes/{id}` → `204`, honouring `If-Match`.
    func deleteNote(
        _ request: HTTPRequest, _ context: RequestContext
    ) throws(RESTProblem) -> HTTPResponse {
        let account = try authenticate(request)
        let id = try Self.noteID(context)
        var expected: Int64?
        if case .versions(let versions) = EntityTag.condition(
            ifMatch: request.headers["If-Match"], id: id)
        {
            let current = try Self.read(store, id: id, account: account.id)
            guard versions.contains(current.version) else {
                throw RESTProblem(.preconditionFailed, .preconditionFailed)
            }
            expected = current.version
        }
        let outcome: ConditionalWrite<Void>
        do {
            outcome = try store.removeNote(id: id, account: account.id, ifVersion: expected)
        } catch {
            throw .storeFailed
        }
        switch outcome {
        case .applied: return HTTPResponse(status: .noContent)
        case .notFound: throw .noSuchNote
        case .versionMismatch: throw RESTProblem(.preconditionFailed, .preconditionFailed)
        }
    }

    // MARK: Steps

    private static func read(_ store: any NoteStore, id: Int64, account: Int64) throws(RESTProblem)
        -> Note
    {
        let found: Note?
        do {
            found = try store.note(id: id, account: account)
        } catch {
            throw .storeFailed
        }
        guard let found else { throw .noSuchNote }
        return found
    }

    /// The `{id}` of the path: anything but a note ID names no note (`404`).
    private static func noteID(_ context: RequestContext) throws(RESTProblem) -> Int64 {
        guard let text = context.parameters["id"], let id = LegacyHandler.noteID(text) else {
            throw .noSuchNote
        }
        return id
    }

    /// The legacy content rules, with the field named: empty 422, over 64 KiB 413,
    /// forbidden characters 422.
    private static func content(_ value: String?, required: Bool) throws(RESTProblem) -> String? {
        guard let value else {
            if required {
                throw RESTProblem(
                    .unprocessableContent, code: .missingContent, .missingField("content"))
            }
            return nil
        }
        guard !value.isEmpty else {
            throw RESTProblem(
                .unprocessableContent, code: .missingContent,
                .invalidField("content", .emptyContent))
        }
        guard value.utf8.count <= NoteContent.maximumBytes else {
            throw RESTProblem(
                .contentTooLarge, code: .invalidParameter,
                .contentTooLarge(field: "content", maximumBytes: NoteContent.maximumBytes))
        }
        guard NoteContent.isValid(value) else { throw .invalidField("content", .invalidContent) }
        return value
    }

    /// A legacy date form, normalized (`HH:mm` gains `:00`); `nil` when absent.
    private static func date(_ value: String?) throws(RESTProblem) -> String? {
        guard let value else { return nil }
        guard let date = NoteDate(value) else { throw .invalidField("date", .invalidDate) }
        return date.text
    }

    /// Now in UTC as `yyyy-MM-dd HH:mm:ss`, the default date of a new note.
    private static func now() -> String {
        let stamp = RFC3339.string(milliseconds: Int64(Date().timeIntervalSince1970 * 1000))
        return String(stamp.prefix(19)).replacingOccurrences(of: "T", with: " ")
    }

    private static func noteResponse(_ status: HTTPStatus, _ note: Note) -> HTTPResponse {
        var response = json(status, note.json)
        response.headers["ETag"] = EntityTag.of(note)
        return response
    }

    /// The query's parameters, decoded as forms are (`+` is a space); the last of a
    /// repeated name wins. Invalid UTF-8 becomes U+FFFD.
    private static func queryParameters(_ request: HTTPRequest) -> [String: String] {
        guard let raw = request.rawQuery else { return [:] }
        var result: [String: String] = [:]
        for pair in raw.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let parts = pair.split(
                separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            let name = decode(Array(parts[0]))
            let value = parts.count > 1 ? decode(Array(parts[1])) : ""
            result[name] = value
        }
        return result
    }

    private static func decode(_ bytes: [UInt8]) -> String {
        let decoded = FormDecoder.percentDecode(bytes, plusAsSpace: .asSpace)
        return String(decoding: decoded, as: UTF8.self)
    }
}
