import HTTPCore
import MyNotesProtocol
import Secrets
import Storage

/// Answers `webservice.php`: the legacy protocol of `PROTOCOL.md`, check by check in
/// the documented order, every answer HTTP 200 with a `ResultCode`.
struct LegacyHandler: HTTPResponder {
    static let paths = ["/mynotes/webservice.php", "/service/mynotes/webservice.php"]
    static let methods: [HTTPMethod] = [.get, .head, .post]

    let store: any NoteStore
    let configuration: ServiceConfiguration

    func respond(to request: HTTPRequest, context: RequestContext) -> HTTPResponse {
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
            format: format ?? .json,
            language: MessageLanguage(acceptLanguage: Self.acceptLanguage(of: request)),
            quota: quotaLimit)
        let outcome: LegacyOutcome
        if parameters.isValidUTF8, format != nil, let action {
            outcome = perform(action, parameters: parameters, request: request)
        } else {
            outcome = .failure(.invalidParameter)
        }
        return writer.response(for: outcome)
    }

    private var quotaLimit: Int {
        if case .atMost(let limit) = configuration.quota { return limit }
        return 0
    }

    private func perform(
        _ action: LegacyAction, parameters: LegacyParameters, request: HTTPRequest
    ) -> LegacyOutcome {
        let email = Self.trimmingSpaces(parameters["email"] ?? "")
        guard !email.isEmpty else { return .failure(.noSuchUser) }
        // The account has many tokens (one per session); the store checks the token's
        // hash against them in the same statement that finds the account. Email-only
        // mode ignores tokens, so it hashes none.
        let tokenHash: [UInt8]? =
            switch configuration.authentication {
            case .token:
                (parameters.nonEmpty("token")
                    ?? BearerToken(authorization: request.headers["Authorization"])?.text)
                    .map { SHA256.hash($0) }
            case .legacyEmail: nil
            }
        do {
            switch action {
            case .query:
                // The account, the token check and the notes in one read; nothing is
                // shown before the check.
                let found = try store.accountAndNotes(email: email, presenting: tokenHash)
                if let refusal = refusal(of: found?.check) { return .failure(refusal) }
                return .notes(found?.notes ?? [])
            case .add, .modify, .remove:
                let found = try store.account(email: email, presenting: tokenHash)
                if let refusal = refusal(of: found) { return .failure(refusal) }
                guard let account = found?.account else { return .failure(.noSuchUser) }
                return try write(action, account: account, parameters: parameters)
            }
        } catch let failure as LegacyFailure {
            return .failure(failure.code)
        } catch StoreError.quotaExceeded {
            return .failure(.quotaExceeded)
        } catch {
            return .failure(.dataAccessFailed)
        }
    }

    /// `add`, `modify` and `remove`, each checking its own parameters in the documented order.
    private func write(
        _ action: LegacyAction, account: Account, parameters: LegacyParameters
    ) throws -> LegacyOutcome {
        if action == .add {
            let draft = try Self.draft(from: parameters)
            let note = try store.addNote(draft, account: account.id, quota: configuration.quota)
            return .added(id: note.id)
        }
        guard let idText = parameters.nonEmpty("id") else { return .failure(.missingID) }
        if action == .modify {
            let draft = try Self.draft(from: parameters)
            guard let id = Self.noteID(idText),
                try store.updateNote(id: id, account: account.id, with: draft) != nil
            else { return .failure(.noSuchNote) }
            return .done
        }
        guard let id = Self.noteID(idText), try store.removeNote(id: id, account: account.id)
        else { return .failure(.noSuchNote) }
        return .done
    }

    /// Why the account may not act on this request, or `nil` when it may: with tokens,
    /// a missing account and a wrong token are one answer (-9), so nobody can probe
    /// which emails have accounts. The token was matched against the account's tokens
    /// by hash in the store (an index lookup of a SHA-256, which leaks nothing useful).
    private func refusal(of found: TokenCheck?) -> ResultCode? {
        switch configuration.authentication {
        case .legacyEmail:
            return found == nil ? .noSuchUser : nil
        case .token:
            guard let found, found.holdsToken else { return .authenticationFailed }
            return nil
        }
    }

    /// A failure found while reading an action's own parameters.
    private struct LegacyFailure: Error {
        let code: ResultCode
    }

    /// Reads `content` then `date`: presence first (-5, -6), then validity (-8).
    private static func draft(
        from parameters: LegacyParameters
    ) throws(LegacyFailure) -> NoteDraft {
        guard let content = parameters.nonEmpty("content") else {
            throw LegacyFailure(code: .missingContent)
        }
        guard let dateText = parameters.nonEmpty("date") else {
            throw LegacyFailure(code: .missingDate)
        }
        guard NoteContent.isValid(content), let date = NoteDate(dateText) else {
            throw LegacyFailure(code: .invalidParameter)
        }
        return NoteDraft(date: date.text, content: content)
    }

    /// A note ID: decimal digits, no sign, no leading zero, within range.
    static func noteID(_ text: String) -> Int64? {
        guard let first = text.utf8.first, first != UInt8(ascii: "0"),
            text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        return Int64(text)
    }

    /// Every `Accept-Language` field joined into one list: HTTP defines several fields
    /// of a list header as one field with their values comma-separated, so the first
    /// among equals may come from an earlier field than the last.
    static func acceptLanguage(of request: HTTPRequest) -> String? {
        let values = request.headers.filter { $0.name.lowercased() == "accept-language" }
            .map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    static func trimmingSpaces(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let start = scalars.firstIndex(where: { $0 != " " }),
            let end = scalars.lastIndex(where: { $0 != " " })
        else { return "" }
        return String(scalars[start...end])
    }
}
