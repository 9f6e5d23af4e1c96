import HTTPCore
import MyNotesDomain
import MyNotesProtocol
import ServerLogging

/// Answers `webservice.php`: the legacy protocol of `docs/PROTOCOL.md`, check by check in
/// the documented order, every answer HTTP 200 with a `ResultCode`. An adapter: it
/// reads the parameters, asks ``NotesService``, and writes what came back.
struct LegacyHandler: HTTPResponder {
    static let paths = ["/mynotes/webservice.php", "/service/mynotes/webservice.php"]
    static let methods: [HTTPMethod] = [.get, .head, .post]

    let notes: NotesService
    /// The notes quota as `-2`'s message names it (0 without one). The protocol's text
    /// names notes only, so a refusal for bytes names the same number.
    private let quotaLimit: Int
    /// Recent query answers, served again until their account's next write.
    private let answers = LegacyAnswerCache()

    init(services: DomainServices) {
        notes = services.notes
        quotaLimit = services.configuration.quota.notes ?? 0
    }

    func respond(to request: HTTPRequest, context: RequestContext) async -> HTTPResponse {
        let parameters: LegacyParameters
        do {
            parameters = try LegacyParameters(request: request)
        } catch {
            return .plain(.badRequest)
        }
        let action = LegacyAction(parameter: parameters["action"])
        if request.method == .head, action != .query {
            var response = HTTPResponse.plain(.methodNotAllowed)
            response.headers["Allow"] = "GET, HEAD, POST"
            return response
        }
        let format = WireFormat(parameter: parameters["type"])
        let writer = LegacyResponseWriter(
            format: format ?? .json, language: MessageLanguage(request: request),
            quota: quotaLimit)
        let outcome: LegacyOutcome
        if parameters.isValidUTF8, format != nil, let action {
            do {
                outcome = try await perform(
                    action, parameters: parameters, request: request, writer: writer,
                    logger: context.logger)
            } catch .storeFailed(.overloaded(let wait)) {
                return Self.overloaded(writer.response(for: .failure(.dataAccessFailed)), wait)
            } catch {
                if case .storeFailed(let cause) = error {
                    context.logger.error(
                        "legacy request failed",
                        [
                            "action": action.rawValue, "result_code": "-3",
                            "cause": cause.description,
                        ])
                }
                outcome = .failure(Self.resultCode(for: error))
            }
        } else {
            outcome = .failure(.invalidParameter)
        }
        return writer.response(for: outcome)
    }

    /// The protocol's -3 answer, sent as `503` with `Retry-After`: the store refused the
    /// work for overload, so the client may retry, and HTTP-aware ones know when.
    private static func overloaded(_ answer: HTTPResponse, _ wait: Duration) -> HTTPResponse {
        var response = answer
        response.status = .serviceUnavailable
        response.headers["Retry-After"] = String(RESTProblem.retryAfterSeconds(wait))
        return response
    }

    /// One action, its checks in the documented order: email (-1), account and token
    /// (-9, or -1 without tokens), then the action's own parameters: `id` (-4),
    /// `content` (-5), `date` (-6), their validity (-8), existence (-7), quota (-2).
    private func perform(
        _ action: LegacyAction, parameters: LegacyParameters, request: HTTPRequest,
        writer: LegacyResponseWriter, logger: Logger
    ) async throws(NoteError) -> LegacyOutcome {
        let email: Email
        do {
            email = try Email(lookingUp: parameters["email"] ?? "")
        } catch .empty {
            throw .noSuchAccount
        } catch {
            throw .invalidEmail(error)
        }
        let credentials = notes.credentials(
            email: email,
            token: parameters.nonEmpty("token")
                ?? BearerToken(authorization: request.headers["Authorization"])?.text)
        switch action {
        case .query:
            return try await query(
                credentials, method: request.method, writer: writer, logger: logger)
        case .add:
            let account = try await notes.account(credentials)
            let (content, date) = try Self.contentAndDate(parameters)
            return .added(id: try await notes.add(content, date: date, account: account).id)
        case .modify:
            let account = try await notes.account(credentials)
            let idText = try Self.idText(parameters)
            let (content, date) = try Self.contentAndDate(parameters)
            guard let id = NoteID(idText) else { throw .notFound }
            _ = try await notes.change(
                id, account: account, content: content, date: date, precondition: .none)
            return .done
        case .remove:
            let account = try await notes.account(credentials)
            guard let id = NoteID(try Self.idText(parameters)) else { throw .notFound }
            try await notes.remove(id, account: account, precondition: .none)
            return .done
        }
    }

    /// A query: the kept answer while nothing has committed to its account since it was
    /// read (answered without the store), else the store's, kept when it is small.
    private func query(
        _ credentials: LegacyCredentials, method: HTTPMethod, writer: LegacyResponseWriter,
        logger: Logger
    ) async throws(NoteError) -> LegacyOutcome {
        let key = LegacyAnswerCache.Key(credentials: credentials, format: writer.format)
        // Taken before the read: a write to the account during it leaves the answer kept
        // from it already stale.
        let stamp = notes.changeStamp()
        if let stamp, let kept = answers.entry(for: key, now: notes.keeper.now),
            notes.isUnchanged(account: kept.account, since: kept.stamp, now: stamp)
        {
            return .answered(kept.response)
        }
        let (account, first, reusableUntil) = try await notes.notes(
            credentials, firstPage: LegacyNotePages.pageSize)
        if LegacyNotePages.fitsInMemory(first) {
            let answer = writer.response(for: .notes(first))
            if let stamp {
                answers.keep(
                    answer, for: key, account: account.id, readAt: stamp, until: reusableUntil)
            }
            return .answered(answer)
        }
        let pages = LegacyNotePages(notes: notes, account: account, first: first, logger: logger)
        // A `HEAD` is answered whole, so that it carries the `Content-Length` a `GET`
        // gets: the server frames a streamed answer to a `HEAD` with no length at all.
        if method == .head { return .notes(try await pages.all()) }
        return .notePages(pages)
    }

    private static func idText(_ parameters: LegacyParameters) throws(NoteError) -> String {
        guard let text = parameters.nonEmpty("id") else { throw .missingID }
        return text
    }

    /// Reads `content` then `date`: presence first (-5, -6), then validity (-8).
    private static func contentAndDate(
        _ parameters: LegacyParameters
    ) throws(NoteError) -> (NoteContent, NoteDate) {
        guard let content = parameters.nonEmpty("content") else { throw .missingContent }
        guard let date = parameters.nonEmpty("date") else { throw .missingDate }
        return (try NoteContent(validating: content), try NoteDate(validating: date))
    }

    /// The protocol's code for a failure of the domain.
    static func resultCode(for error: NoteError) -> ResultCode {
        switch error {
        case .noSuchAccount: .noSuchUser
        case .authenticationFailed: .authenticationFailed
        case .missingID: .missingID
        case .missingContent, .invalidContent(.empty): .missingContent
        case .missingDate: .missingDate
        case .invalidContent, .invalidDate, .invalidEmail: .invalidParameter
        case .quotaExceeded: .quotaExceeded
        // Legacy writes carry no precondition; a note that is not as expected is not there.
        case .notFound, .versionMismatch, .preconditionFailed: .noSuchNote
        case .storeFailed: .dataAccessFailed
        }
    }
}
