import HTTPCore
import MyNotesAPI
import MyNotesDomain

extension RESTAPI {
    /// `POST /api/v1/account/password` `{currentPassword, newPassword}` → `204`; every other
    /// token of the account is revoked, the one used stays.
    func changePassword(
        _ request: HTTPRequest, _ context: BearerContext
    ) async throws(RESTProblem) -> HTTPResponse {
        let body = try JSONRequestBody.decode(
            APIPasswordChange.self, request, allowed: ["currentPassword", "newPassword"])
        let (current, new) = (body.currentPassword, body.newPassword)
        do {
            try await sessions.changePassword(
                token: context.token, current: current, new: new, from: request.clientAddress)
        } catch .passwordTooShort(let minimum) {
            throw .invalidField("newPassword", .passwordTooShort(minimum))
        } catch .passwordTooLong(let maximum) {
            throw .invalidField("newPassword", .passwordTooLong(maximum))
        } catch {
            throw Self.problem(error)
        }
        return HTTPResponse(status: .noContent)
    }

    /// `GET /api/v1/sessions` → `200 {sessions: [Session]}`, oldest first, the live ones.
    func listSessions(
        _ request: HTTPRequest, _ context: BearerContext
    ) async throws(RESTProblem) -> HTTPResponse {
        let all: [SessionSummary]
        do {
            all = try await sessions.sessions(token: context.token)
        } catch {
            throw Self.problem(error)
        }
        var writer = JSONObjectWriter()
        writer.objects("sessions", all) { session, object in
            object.string("id", session.id)
            object.string("kind", session.kind == .session ? "session" : "accessKey")
            object.string("createdAt", RFC3339.string(milliseconds: session.createdAt))
            object.string("lastUsedAt", RFC3339.string(milliseconds: session.lastUsedAt))
            object.string("expiresAt", session.expiresAt.map { RFC3339.string(milliseconds: $0) })
            object.boolean("current", session.isCurrent)
        }
        return Self.json(.ok, writer.finish())
    }

    /// `DELETE /api/v1/sessions` → `200 {revoked: n}`: every token of the account but the
    /// one used.
    func deleteOtherSessions(
        _ request: HTTPRequest, _ context: BearerContext
    ) async throws(RESTProblem) -> HTTPResponse {
        let revoked: Int
        do {
            revoked = try await sessions.revokeOtherSessions(token: context.token)
        } catch {
            throw Self.problem(error)
        }
        var writer = JSONObjectWriter()
        writer.integer("revoked", Int64(revoked))
        return Self.json(.ok, writer.finish())
    }

    /// `DELETE /api/v1/sessions/{id}` → `204`; an ID the account has no session of is `404`.
    func deleteSession(
        _ request: HTTPRequest, _ context: BearerContext
    ) async throws(RESTProblem) -> HTTPResponse {
        do {
            try await sessions.revokeSession(
                id: context.parameters["id"] ?? "", token: context.token)
        } catch {
            throw Self.problem(error)
        }
        return HTTPResponse(status: .noContent)
    }
}
