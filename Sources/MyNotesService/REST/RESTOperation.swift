import HTTPCore

/// What a REST operation needs to know of who calls it, and the operation itself. The
/// responder establishes the identity before the operation runs, so no operation
/// reads the `Authorization` header or looks up a session of its own, and an operation
/// that needs an account cannot be written without one.
///
/// ```swift
/// let getNote = RESTOperation.signedIn { request, context throws(RESTProblem) in
///     try await notes.note(id, account: context.account)  // …
/// }
/// ```
enum RESTOperation: Sendable {
    typealias Body<Context> =
        @Sendable (HTTPRequest, Context) async throws(RESTProblem) -> HTTPResponse

    /// Anyone may call it: signing up, signing in, the API's own description.
    case open(Body<RequestContext>)
    /// It acts on the session the bearer token names, which the session service checks
    /// as part of the operation (signing out, listing or revoking sessions).
    case bearer(Body<BearerContext>)
    /// It acts on the notes of the account the bearer token signs in.
    case signedIn(Body<SignedInContext>)
}
