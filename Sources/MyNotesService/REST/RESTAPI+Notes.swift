import HTTPCore
import MyNotesAPI
import MyNotesDomain
import MyNotesProtocol
import PercentEncoding

extension RESTAPI {
    static let defaultPageSize = 50
    static let pageSizes = 1...200
    static let maximumQueryCharacters = 1_000
    /// About what a note's JSON holds beside its content: the keys, the ID, the date and
    /// two RFC 3339 times (a page's buffer is reserved from it).
    static let noteFieldsBytes = 160

    /// `GET /api/v1/notes?limit=&cursor=&q=&snippet=` → `200 {notes, nextCursor}`; with
    /// `snippet=true` and a `q`, each note carries a `snippet` around its first match.
    func listNotes(
        _ request: HTTPRequest, _ context: SignedInContext
    ) async throws(RESTProblem) -> HTTPResponse {
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
        let snippets = try Self.snippetQuery(query, searching: page.containing)
        // One more than asked tells whether another page follows without a second query.
        var probe = page
        probe.limit += 1
        let notes = try await Self.domain { () async throws(NoteError) in
            try await self.notes.notes(account: context.account, page: probe)
        }
        let shown = notes.prefix(page.limit)
        // The content and each note's other fields: the page is written without growing.
        var writer = JSONObjectWriter(capacity: shown.reduce(128) { $0 + $1.jsonCapacity })
        writer.objects("notes", shown) { note, object in
            note.write(to: &object)
            if let snippets, let snippet = SearchSnippet(of: note.content, matching: snippets) {
                object.string("snippet", snippet.text)
            }
        }
        writer.string(
            "nextCursor",
            notes.count > page.limit ? shown.last.map { NoteCursor.encode($0.position) } : nil)
        return Self.json(.ok, writer.finish())
    }

    /// `POST /api/v1/notes` `{content, date?}` → `201` Note with `Location` and `ETag`.
    func createNote(
        _ request: HTTPRequest, _ context: SignedInContext
    ) async throws(RESTProblem) -> HTTPResponse {
        let body = try Self.noteBody(APINewNote.self, request)
        guard let content = try Self.content(body.content) else {
            throw Self.problem(.missingContent)
        }
        let date = try Self.date(body.date)
        let note = try await Self.domain { () async throws(NoteError) in
            try await notes.add(content, date: date, account: context.account)
        }
        var response = Self.noteResponse(.created, note)
        response.headers["Location"] = "/api/v1/notes/\(note.id)"
        return response
    }

    /// `GET /api/v1/notes/{id}` → `200` Note with `ETag`.
    func getNote(
        _ request: HTTPRequest, _ context: SignedInContext
    ) async throws(RESTProblem) -> HTTPResponse {
        let id = try Self.noteID(context)
        let note = try await Self.domain { () async throws(NoteError) in
            try await notes.note(id, account: context.account)
        }
        return Self.noteResponse(.ok, note)
    }

    /// `PUT` (both fields required) or `PATCH` (either) `/api/v1/notes/{id}`, honouring
    /// `If-Match`. The check and the write are one step of the store: a `PATCH` merges
    /// into the note as it is when the write runs.
    func writeNote(
        _ request: HTTPRequest, _ context: SignedInContext, partial: Bool
    ) async throws(RESTProblem) -> HTTPResponse {
        let id = try Self.noteID(context)
        let body: any NoteBody =
            partial
            ? try Self.noteBody(APINotePatch.self, request)
            : try Self.noteBody(APINoteReplacement.self, request)
        let content = try Self.content(body.noteContent)
        let date = try Self.date(body.noteDate)
        let precondition = EntityTag.precondition(ifMatch: request.headers["If-Match"], id: id)
        let note = try await Self.domain { () async throws(NoteError) in
            try await notes.change(
                id, account: context.account, content: content, date: date,
                precondition: precondition)
        }
        return Self.noteResponse(.ok, note)
    }

    /// `DELETE /api/v1/notes/{id}` → `204`, honouring `If-Match`.
    func deleteNote(
        _ request: HTTPRequest, _ context: SignedInContext
    ) async throws(RESTProblem) -> HTTPResponse {
        let id = try Self.noteID(context)
        let precondition = EntityTag.precondition(ifMatch: request.headers["If-Match"], id: id)
        try await Self.domain { () async throws(NoteError) in
            try await notes.remove(id, account: context.account, precondition: precondition)
        }
        return HTTPResponse(status: .noContent)
    }

    // MARK: Steps

    /// The `{id}` of the path: anything but a note ID names no note (`404`).
    private static func noteID(_ context: SignedInContext) throws(RESTProblem) -> NoteID {
        guard let text = context.parameters["id"], let id = NoteID(text) else {
            throw .noSuchNote
        }
        return id
    }

    /// A note body (`POST`, `PUT`, `PATCH`) as `Body`, its members refused in the order
    /// the API has always checked them: the content in full (its type, then its rules, then
    /// its presence) before anything of the date. Decoding meets a date of the wrong type
    /// or a missing one before the content's rules are checked, so that refusal waits
    /// until the content is found fine.
    private static func noteBody<Body: NoteBody>(
        _ type: Body.Type, _ request: HTTPRequest
    ) throws(RESTProblem) -> Body {
        let missing = { (name: String) in
            name == "date" ? problem(.missingDate) : problem(.missingContent)
        }
        do {
            return try JSONRequestBody.decode(
                Body.self, request, allowed: NoteContentMember.allowed, missing: missing)
        } catch {
            switch error.message {
            case .wrongType(field: "date", _), .missingField("date"):
                let first = try JSONRequestBody.decode(
                    NoteContentMember.self, request, allowed: NoteContentMember.allowed)
                _ = try content(first.content)
                throw error
            default:
                throw error
            }
        }
    }

    /// Content that meets the rules; `nil` when absent.
    private static func content(_ value: String?) throws(RESTProblem) -> NoteContent? {
        guard let value else { return nil }
        do {
            return try NoteContent(validating: value)
        } catch {
            throw problem(error)
        }
    }

    /// A date in one of the `NoteDate` forms; `nil` when absent.
    private static func date(_ value: String?) throws(RESTProblem) -> NoteDate? {
        guard let value else { return nil }
        do {
            return try NoteDate(validating: value)
        } catch {
            throw problem(error)
        }
    }

    /// Runs a step of the domain, its failure as the API answers it.
    @discardableResult
    static func domain<Value>(
        _ body: () async throws(NoteError) -> Value
    ) async throws(RESTProblem) -> Value {
        do {
            return try await body()
        } catch {
            throw problem(error)
        }
    }

    /// What a client of this API sees of a failure of the domain.
    static func problem(_ error: NoteError) -> RESTProblem {
        switch error {
        case .missingContent:
            return RESTProblem(
                .unprocessableContent, code: .missingContent, .missingField("content"))
        case .missingDate:
            return RESTProblem(.unprocessableContent, code: .missingDate, .missingField("date"))
        case .invalidContent(.empty):
            return RESTProblem(
                .unprocessableContent, code: .missingContent,
                .invalidField("content", .emptyContent))
        case .invalidContent(.tooLarge(let maximum)):
            return RESTProblem(
                .contentTooLarge, code: .invalidParameter,
                .contentTooLarge(field: "content", maximumBytes: maximum))
        case .invalidContent(.forbiddenCharacter):
            return .invalidField("content", .invalidContent)
        case .invalidDate:
            return .invalidField("date", .invalidDate)
        case .quotaExceeded(let limit):
            return RESTProblem(.forbidden, code: .quotaExceeded, .quotaExceeded(limit))
        case .versionMismatch(let current):
            var problem = RESTProblem(.preconditionFailed, .preconditionFailed)
            problem.headers["ETag"] = EntityTag.of(current)
            problem.currentVersion = current.version
            return problem
        case .preconditionFailed:
            return RESTProblem(.preconditionFailed, .preconditionFailed)
        // The path always has an ID, and REST accounts are found by their bearer token.
        case .notFound, .missingID: return .noSuchNote
        case .noSuchAccount, .authenticationFailed: return .unauthorized(tokenGiven: true)
        case .invalidEmail(let reason): return .invalidField("email", .invalidEmail(reason))
        case .storeFailed(.overloaded(let wait)): return .overloaded(retryAfter: wait)
        case .storeFailed(let cause): return .storeFailed(cause)
        }
    }

    private static func noteResponse(_ status: HTTPStatus, _ note: Note) -> HTTPResponse {
        var response = json(status, note.json)
        response.headers["ETag"] = EntityTag.of(note)
        return response
    }

    /// The query's parameters, decoded as forms are (`+` is a space); the last of a
    /// repeated name wins. Invalid UTF-8 becomes U+FFFD.
    /// The query whose matches `snippet=true` asks to show, `nil` for none (`false`, no
    /// `snippet`, or no search); any other value is `400`.
    private static func snippetQuery(
        _ query: [String: String], searching text: String?
    ) throws(RESTProblem) -> String? {
        switch query["snippet"] {
        case nil, "false": return nil
        case "true": return text.flatMap { $0.isEmpty ? nil : $0 }
        default: throw .badRequest(.invalidField("snippet", .notABoolean))
        }
    }

    static func queryParameters(_ request: HTTPRequest) -> [String: String] {
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
        String(decoding: PercentDecoder.form.decodeBytesLeniently(bytes), as: UTF8.self)
    }
}
