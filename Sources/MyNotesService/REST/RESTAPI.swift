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
    let authenticator: RESTAuthenticator

    init(services: DomainServices, changeStreams: ChangeStreamHub) {
        notes = services.notes
        sessions = services.sessions
        changes = services.changeFeed
        self.changeStreams = changeStreams
        authenticator = RESTAuthenticator(sessions: services.sessions)
    }

    /// Registers every ``RESTEndpoint``: one route per path, one responder per method,
    /// so the router answers a method the path lacks (`405` with `Allow`).
    func register(on router: inout Router) {
        var paths: [String] = []
        var responders: [String: [HTTPMethod: any HTTPResponder]] = [:]
        for endpoint in RESTEndpoint.allCases {
            if responders[endpoint.path] == nil { paths.append(endpoint.path) }
            responders[endpoint.path, default: [:]][endpoint.method] = RESTResponder(
                operation: operation(endpoint), authenticator: authenticator)
        }
        for path in paths {
            router.on(PathPattern(path), responders: responders[path] ?? [:])
        }
    }

    private func operation(_ endpoint: RESTEndpoint) -> RESTOperation {
        switch endpoint {
        case .createAccount:
            .open { request, _ throws(RESTProblem) in try await createAccount(request) }
        case .createSession:
            .open { request, _ throws(RESTProblem) in try await createSession(request) }
        case .openAPIDocument:
            .open { _, _ throws(RESTProblem) in
                HTTPResponse(
                    status: .ok, contentType: Self.jsonContentType, body: OpenAPIDocument.json)
            }
        case .deleteCurrentSession:
            .bearer { request, context throws(RESTProblem) in
                try await deleteCurrentSession(request, context)
            }
        case .listSessions:
            .bearer { request, context throws(RESTProblem) in
                try await listSessions(request, context)
            }
        case .deleteOtherSessions:
            .bearer { request, context throws(RESTProblem) in
                try await deleteOtherSessions(request, context)
            }
        case .deleteSession:
            .bearer { request, context throws(RESTProblem) in
                try await deleteSession(request, context)
            }
        case .changePassword:
            .bearer { request, context throws(RESTProblem) in
                try await changePassword(request, context)
            }
        case .listNotes:
            .signedIn { request, context throws(RESTProblem) in
                try await listNotes(request, context)
            }
        case .createNote:
            .signedIn { request, context throws(RESTProblem) in
                try await createNote(request, context)
            }
        case .getNote:
            .signedIn { request, context throws(RESTProblem) in try await getNote(request, context)
            }
        case .replaceNote:
            .signedIn { request, context throws(RESTProblem) in
                try await writeNote(request, context, partial: false)
            }
        case .updateNote:
            .signedIn { request, context throws(RESTProblem) in
                try await writeNote(request, context, partial: true)
            }
        case .deleteNote:
            .signedIn { request, context throws(RESTProblem) in
                try await deleteNote(request, context)
            }
        case .listChanges:
            .signedIn { request, context throws(RESTProblem) in
                try await listChanges(request, context)
            }
        case .streamChanges:
            .signedIn { request, context throws(RESTProblem) in
                try await streamChanges(request, context)
            }
        }
    }

    static func json(_ status: HTTPStatus, _ body: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: status, contentType: jsonContentType, body: body)
    }
}
