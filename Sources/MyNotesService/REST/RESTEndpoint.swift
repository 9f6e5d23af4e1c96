import HTTPCore

/// Every operation of REST API v1: its method, path and OpenAPI `operationId`. The
/// router is built from this list and a test holds the OpenAPI document to it.
///
/// ```swift
/// RESTEndpoint.allCases.map { "\($0.method) \($0.path)" }
/// // ["POST /api/v1/accounts", "POST /api/v1/sessions", …]
/// ```
public enum RESTEndpoint: String, CaseIterable, Sendable {
    case createAccount
    case createSession
    case deleteCurrentSession
    case listSessions
    case deleteOtherSessions
    case deleteSession
    case changePassword
    case listNotes
    case createNote
    case getNote
    case replaceNote
    case updateNote
    case deleteNote
    case listChanges
    case streamChanges
    case openAPIDocument

    public var method: HTTPMethod {
        switch self {
        case .createAccount, .createSession, .createNote, .changePassword: .post
        case .deleteCurrentSession, .deleteOtherSessions, .deleteSession, .deleteNote: .delete
        case .listSessions, .listNotes, .getNote, .openAPIDocument, .listChanges,
            .streamChanges:
            .get
        case .replaceNote: .put
        case .updateNote: .patch
        }
    }

    public var path: String {
        switch self {
        case .createAccount: "/api/v1/accounts"
        case .createSession, .listSessions, .deleteOtherSessions: "/api/v1/sessions"
        // Before `{id}`: routes match in this order, and no session ID is `current`.
        case .deleteCurrentSession: "/api/v1/sessions/current"
        case .deleteSession: "/api/v1/sessions/{id}"
        case .changePassword: "/api/v1/account/password"
        case .listNotes, .createNote: "/api/v1/notes"
        case .getNote, .replaceNote, .updateNote, .deleteNote: "/api/v1/notes/{id}"
        case .listChanges: "/api/v1/changes"
        case .streamChanges: "/api/v1/changes/stream"
        case .openAPIDocument: "/api/v1/openapi.json"
        }
    }

    /// The OpenAPI `operationId`.
    public var operationID: String { rawValue }
}
