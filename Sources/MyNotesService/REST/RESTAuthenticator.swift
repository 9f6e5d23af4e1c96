import HTTPCore
import MyNotesDomain

/// Establishes who a REST request speaks for, once, before its operation runs: the
/// bearer token of `Authorization` and, for operations on notes, the account it signs
/// in. A missing or unknown token is `401`.
struct RESTAuthenticator: Sendable {
    let sessions: SessionService

    /// The bearer token of the request, or `401`.
    func token(_ request: HTTPRequest) throws(RESTProblem) -> String {
        guard let token = BearerToken(authorization: request.headers["Authorization"])?.text
        else { throw .unauthorized(tokenGiven: request.headers["Authorization"] != nil) }
        return token
    }

    /// The account the token signs in, or `401`.
    func account(token: String) async throws(RESTProblem) -> Account {
        do {
            return try await sessions.account(token: token)
        } catch .invalidToken {
            throw .unauthorized(tokenGiven: true)
        } catch {
            throw RESTAPI.problem(error)
        }
    }

    /// Runs an operation with the identity it asks for.
    func run(
        _ operation: RESTOperation, _ request: HTTPRequest, _ context: RequestContext
    ) async throws(RESTProblem) -> HTTPResponse {
        switch operation {
        case .open(let body):
            return try await body(request, context)
        case .bearer(let body):
            return try await body(request, BearerContext(route: context, token: token(request)))
        case .signedIn(let body):
            let token = try token(request)
            let account = try await account(token: token)
            return try await body(
                request, SignedInContext(route: context, token: token, account: account))
        }
    }
}
