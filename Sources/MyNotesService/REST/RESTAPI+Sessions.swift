import HTTPCore
import MyNotesAPI
import MyNotesDomain

extension RESTAPI {
    /// `POST /api/v1/accounts` `{email, password}` → `201 {email, token}`.
    func createAccount(_ request: HTTPRequest) async throws(RESTProblem) -> HTTPResponse {
        let body = try JSONRequestBody.decode(
            APICredentials.self, request, allowed: ["email", "password"])
        let (email, password) = (body.email, body.password)
        let account: Account
        let token: String
        do {
            (account, token) = try await sessions.signUp(
                email: email, password: password, from: request.clientAddress)
        } catch {
            throw Self.problem(error)
        }
        var writer = JSONObjectWriter()
        writer.string("email", account.email)
        writer.string("token", token)
        return Self.json(.created, writer.finish())
    }

    /// `POST /api/v1/sessions` `{email, password}` → `201 {token}`.
    func createSession(_ request: HTTPRequest) async throws(RESTProblem) -> HTTPResponse {
        let body = try JSONRequestBody.decode(
            APICredentials.self, request, allowed: ["email", "password"])
        let (email, password) = (body.email, body.password)
        let token: String
        do {
            token = try await sessions.signIn(
                email: email, password: password, from: request.clientAddress)
        } catch {
            throw Self.problem(error)
        }
        var writer = JSONObjectWriter()
        writer.string("token", token)
        return Self.json(.created, writer.finish())
    }

    /// `DELETE /api/v1/sessions/current` → `204`; the token used stops working.
    func deleteCurrentSession(
        _ request: HTTPRequest, _ context: BearerContext
    ) async throws(RESTProblem) -> HTTPResponse {
        do {
            try await sessions.signOut(token: context.token)
        } catch {
            throw Self.problem(error)
        }
        return HTTPResponse(status: .noContent)
    }

    static func problem(_ error: SessionError) -> RESTProblem {
        switch error {
        case .signupClosed:
            return RESTProblem(.forbidden, .signupClosed)
        case .invalidEmail(let reason):
            return .invalidField("email", .invalidEmail(reason))
        case .passwordTooShort(let minimum):
            return .invalidField("password", .passwordTooShort(minimum))
        case .passwordTooLong(let maximum):
            return .invalidField("password", .passwordTooLong(maximum))
        case .duplicateEmail:
            return RESTProblem(.conflict, .emailTaken)
        case .wrongCredentials, .noSuchAccount:
            var problem = RESTProblem(
                .unauthorized, code: .authenticationFailed, .wrongCredentials)
            problem.headers["WWW-Authenticate"] = #"Bearer realm="mynotes""#
            return problem
        case .throttled(let wait):
            return tooManyRequests(retryAfter: wait, RESTMessage.throttled)
        case .rateLimited(let wait):
            return tooManyRequests(retryAfter: wait, RESTMessage.rateLimited)
        case .invalidToken:
            return .unauthorized(tokenGiven: true)
        case .wrongCurrentPassword:
            return RESTProblem(.forbidden, .wrongCurrentPassword)
        case .noSuchSession:
            return RESTProblem(.notFound, .noSuchSession)
        case .overloaded(let wait), .store(.overloaded(let wait)):
            return .overloaded(retryAfter: wait)
        case .store, .cryptoUnavailable:
            return .storeFailed(error)
        }
    }

    /// `429` with `Retry-After` in whole seconds, which `message` also states.
    private static func tooManyRequests(
        retryAfter wait: Duration, _ message: (Int) -> RESTMessage
    ) -> RESTProblem {
        let seconds = RESTProblem.retryAfterSeconds(wait)
        var problem = RESTProblem(.tooManyRequests, message(seconds))
        problem.headers["Retry-After"] = String(seconds)
        return problem
    }
}
