import HTTPCore
import MyNotesProtocol

/// The one error type of the REST API. Handlers throw it; ``RESTResponder`` renders it,
/// in one place, as `application/problem+json` (RFC 9457):
///
/// ```json
/// {"type": "about:blank", "title": "Not Found", "status": 404, "code": -7, "detail": "No such note."}
/// ```
///
/// ```swift
/// throw RESTProblem(.notFound, code: .noSuchNote, .resultCode(.noSuchNote))
/// ```
struct RESTProblem: Error, Sendable {
    var status: HTTPStatus
    /// Stable and numeric: the legacy ResultCode where one fits, else the HTTP status.
    var code: Int
    var message: RESTMessage
    /// The problem's `type`: `about:blank` (the status says it all) unless a client must
    /// tell this problem from others of its status.
    var type = "about:blank"
    /// Extra fields for the response, e.g. `Retry-After` or `WWW-Authenticate`.
    var headers: HTTPHeaders = HTTPHeaders()
    /// A `412`'s `currentVersion` member: the version the note is at now (its `ETag`
    /// goes in ``headers``), so the client sees what it conflicts with.
    var currentVersion: Int64?
    /// What failed inside, for the server's log only: never rendered to the client.
    var cause: String?

    init(_ status: HTTPStatus, code: ResultCode, _ message: RESTMessage) {
        self.status = status
        self.code = code.rawValue
        self.message = message
    }

    /// A problem with no fitting ResultCode: its code is the HTTP status.
    init(_ status: HTTPStatus, _ message: RESTMessage) {
        self.status = status
        self.code = status.rawValue
        self.message = message
    }
}

extension RESTProblem {
    /// `401` for a missing, unknown or revoked bearer token.
    static func unauthorized(tokenGiven: Bool) -> RESTProblem {
        var problem = RESTProblem(
            .unauthorized, code: .authenticationFailed, .resultCode(.authenticationFailed))
        problem.headers["WWW-Authenticate"] =
            tokenGiven
            ? #"Bearer realm="mynotes", error="invalid_token""# : #"Bearer realm="mynotes""#
        return problem
    }

    static let noSuchNote = RESTProblem(.notFound, code: .noSuchNote, .resultCode(.noSuchNote))

    /// `500` for a store that failed; `cause` (SQLite's report) goes to the log.
    static func storeFailed(_ cause: some Error) -> RESTProblem {
        var problem = RESTProblem(
            .internalServerError, code: .dataAccessFailed, .resultCode(.dataAccessFailed))
        problem.cause = String(describing: cause)
        return problem
    }

    /// `503` with `Retry-After`: a queue of work is full, so the request was refused at
    /// once rather than left to wait; nothing was done. Its code is the status, 503.
    static func overloaded(retryAfter wait: Duration) -> RESTProblem {
        let seconds = retryAfterSeconds(wait)
        var problem = RESTProblem(.serviceUnavailable, .overloaded(seconds: seconds))
        problem.headers["Retry-After"] = String(seconds)
        return problem
    }

    /// A wait as `Retry-After` gives it: whole seconds, rounded up, at least one.
    static func retryAfterSeconds(_ wait: Duration) -> Int {
        max(1, Int((wait / .seconds(1)).rounded(.up)))
    }

    static func invalidField(_ field: String, _ reason: RESTMessage.Reason) -> RESTProblem {
        RESTProblem(.unprocessableContent, code: .invalidParameter, .invalidField(field, reason))
    }

    static func badRequest(_ message: RESTMessage) -> RESTProblem {
        RESTProblem(.badRequest, code: .invalidParameter, message)
    }
}
