import BoundedExecution
import HTTPCore
import MyNotesDomain
import MyNotesProtocol
import Secrets

/// REST API v1 (docs/REST-API.md): accounts, sessions and notes as JSON, errors as
/// problem details, over the same domain (``NotesService``, ``SessionService``) and
/// tokens as the legacy protocol.
///
/// ```swift
/// var router = Router()
/// RESTAPI(services: services, changeStreams: changeStreams).register(on: &router)
/// ```
struct RESTAPI: Sendable {
    static let jsonContentType = "application/json; charset=utf-8"

    let notes: NotesService
    let sessions: SessionService
    /// The change feed, and its live streams (the application's, which ends them at
    /// shutdown).
    let changes: ChangeFeed
    let changeStreams: ChangeStreamHub

    init(services: DomainServices, changeStreams: ChangeStreamHub) {
        notes = services.notes
        sessions = services.sessions
        changes = services.changeFeed
        self.changeStreams = changeStreams
    }

    /// Registers every ``RESTEndpoint``: one route per path, one responder per method,
    /// so the router answers a method the path lacks (`405` with `Allow`).
    func register(on router: inout Router) {
        var paths: [String] = []
        var responders: [String: [HTTPMethod: any HTTPResponder]] = [:]
        for endpoint in RESTEndpoint.allCases {
            if responders[endpoint.path] == nil { paths.append(endpoint.path) }
            responders[endpoint.path, default: [:]][endpoint.method] = RESTResponder(
                operation: operation(endpoint))
        }
        for path in paths {
            router.on(PathPattern(path), responders: responders[path] ?? [:])
        }
    }

    private func operation(_ endpoint: RESTEndpoint) -> RESTResponder.Operation {
        switch endpoint {
        case .createAccount: { request, _ throws(RESTProblem) in try await createAccount(request) }
        case .createSession: { request, _ throws(RESTProblem) in try await createSession(request) }
        case .deleteCurrentSession:
            { request, _ throws(RESTProblem) in try await deleteCurrentSession(request) }
        case .listSessions: { request, _ throws(RESTProblem) in try await listSessions(request) }
        case .deleteOtherSessions:
            { request, _ throws(RESTProblem) in try await deleteOtherSessions(request) }
        case .deleteSession:
            { request, context throws(RESTProblem) in try await deleteSession(request, context) }
        case .changePassword:
            { request, _ throws(RESTProblem) in try await changePassword(request) }
        case .listNotes: { request, _ throws(RESTProblem) in try await listNotes(request) }
        case .createNote: { request, _ throws(RESTProblem) in try await createNote(request) }
        case .getNote:
            { request, context throws(RESTProblem) in try await getNote(request, context) }
        case .replaceNote:
            { request, context throws(RESTProblem) in
                try await writeNote(request, context, partial: false)
            }
        case .updateNote:
            { request, context throws(RESTProblem) in
                try await writeNote(request, context, partial: true)
            }
        case .deleteNote:
            { request, context throws(RESTProblem) in try await deleteNote(request, context) }
        case .listChanges: { request, _ throws(RESTProblem) in try await listChanges(request) }
        case .streamChanges:
            { request, _ throws(RESTProblem) in try await streamChanges(request) }
        case .openAPIDocument:
            { _, _ throws(RESTProblem) in
                HTTPResponse(
                    status: .ok, contentType: Self.jsonContentType, body: OpenAPIDocument.json)
            }
        }
    }

    // MARK: Shared steps

    /// The bearer token of the request, or `401`.
    func bearerToken(_ request: HTTPRequest) throws(RESTProblem) -> String {
        guard let token = BearerToken(authorization: request.headers["Authorization"])?.text
        else { throw .unauthorized(tokenGiven: request.headers["Authorization"] != nil) }
        return token
    }

    /// The account whose token the request bears, or `401`.
    func authenticate(_ request: HTTPRequest) async throws(RESTProblem) -> Account {
        let token = try bearerToken(request)
        do {
            return try await sessions.account(token: token)
        } catch .invalidToken {
            throw .unauthorized(tokenGiven: true)
        } catch {
            throw Self.problem(error)
        }
    }

    static func json(_ status: HTTPStatus, _ body: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: status, contentType: jsonContentType, body: body)
    }
}
