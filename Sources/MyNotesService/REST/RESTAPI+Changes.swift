import HTTPCore
import MyNotesDomain

extension RESTAPI {
    static let eventStreamContentType = "text/event-stream; charset=utf-8"

    /// `GET /api/v1/changes?since=&limit=` → `200 {changes, cursor, hasMore}`, or `410`
    /// when `since` has expired.
    func listChanges(
        _ request: HTTPRequest, _ context: SignedInContext
    ) async throws(RESTProblem) -> HTTPResponse {
        let account = context.account
        let query = Self.queryParameters(request)
        var limit = ChangeFeed.defaultPageSize
        if let text = query["limit"] {
            guard text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let value = Int(text),
                ChangeFeed.pageSizes.contains(value)
            else {
                throw .badRequest(.invalidField("limit", .limitOutOfRange(ChangeFeed.pageSizes)))
            }
            limit = value
        }
        let since = try Self.changeCursor(query["since"], named: "since")
        let page = try await feedPage(account: account.id, after: since, limit: limit)
        var writer = JSONObjectWriter(
            capacity: page.changes.reduce(128) { $0 + ($1.note?.jsonCapacity ?? 0) + 128 })
        writer.objects("changes", page.changes) { change, object in change.write(to: &object) }
        writer.string("cursor", String(page.cursor))
        writer.boolean("hasMore", page.hasMore)
        var response = Self.json(.ok, writer.finish())
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    /// `GET /api/v1/changes/stream` (`Last-Event-ID` or `?since=` resumes): the account's
    /// changes as Server-Sent Events, from the feed after the cursor, then live.
    func streamChanges(
        _ request: HTTPRequest, _ context: SignedInContext
    ) async throws(RESTProblem) -> HTTPResponse {
        let (account, token) = (context.account, context.token)
        // The header is what a reconnecting client sends; it wins over the query.
        let resume = request.headers["Last-Event-ID"].flatMap { $0.isEmpty ? nil : $0 }
        let since: Int64?
        if let resume {
            since = try Self.changeCursor(resume, named: "Last-Event-ID")
        } else {
            since = try Self.changeCursor(Self.queryParameters(request)["since"], named: "since")
        }
        let start: Int64
        if let since {
            // Expired before any event: a 410, not a stream that ends at once.
            _ = try await feedPage(account: account.id, after: since, limit: 0)
            start = since
        } else {
            do {
                start = try await changes.position(account: account.id)
            } catch {
                throw Self.problem(error)
            }
        }
        let configuration = changes.configuration
        let body = StreamingBody(bufferBytes: configuration.streamBufferBytes)
        let (stream, executor) = try changeStreams.open(account: account.id, body: body)
        let (hub, sessions) = (changeStreams, self.sessions)
        stream.start(
            from: start, feed: changes, configuration: configuration, on: executor,
            authorized: { (try? await sessions.account(token: token))?.id == account.id },
            ended: { hub.remove(stream) })
        var response = HTTPResponse(
            status: .ok, contentType: Self.eventStreamContentType, stream: body)
        response.headers["Cache-Control"] = "no-store"
        // Proxies that buffer responses (nginx) would hold the events back.
        response.headers["X-Accel-Buffering"] = "no"
        return response
    }

    /// A change cursor as the API gives them (decimal digits); `nil` for none or empty.
    static func changeCursor(_ text: String?, named name: String) throws(RESTProblem) -> Int64? {
        guard let text, !text.isEmpty else { return nil }
        guard text.utf8.count <= 18, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let cursor = Int64(text)
        else { throw .badRequest(.invalidField(name, .invalidCursor)) }
        return cursor
    }

    private func feedPage(account: Int64, after cursor: Int64?, limit: Int)
        async throws(RESTProblem) -> FeedPage
    {
        do {
            return try await changes.page(account: account, after: cursor, limit: limit)
        } catch {
            throw Self.problem(error)
        }
    }

    /// A cursor the feed can no longer answer for is `410 Gone`.
    static func problem(_ error: ChangeFeedError) -> RESTProblem {
        switch error {
        case .cursorExpired: .cursorExpired
        case .storeFailed(let cause): problem(NoteError.storeFailed(cause))
        }
    }
}
