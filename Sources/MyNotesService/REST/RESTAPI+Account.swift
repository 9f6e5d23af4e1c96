import HTTPCore
import Storage

extension RESTAPI {
    /// `POST /api/v1/account/password` `{currentPassword, newPassword}` → `204`; every other
    /// token of the account is revoked, the one used stays.
    func changePassword(_ request: HTTPRequest) async throws(RESTProblem) -> HTTPResponse {
        let token = try bearerToken(request)
        let body = try JSONRequestBody(request, allowed: ["currentPassword", "newPassword"])
        let current = try body.requiredString("currentPassword")
        let new = try body.requiredString("newPassword")
        do {
            try await sessions.changePassword(
                token: token, current: current, new: new, from: request.clientAddress)
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
    func listSessions(_ request: HTTPRequest) async throws(RESTProblem) -> HTTPResponse {
        let token = try bearerToken(request)
        let all: [SessionSummary]
        do {
            all = try await sessions.sessions(token: token)
        } catch {
            throw Self.problem(error)
        }
        var array: [UInt8] = [UInt8(ascii: "[")]
        for (index, session) in all.enumerated() {
            if index > 0 { array.append(UInt8(ascii: ",")) }
            var writer = JSONObjectWriter()
            writer.string("id", session.id)
            writer.string("kind", session.kind == .session ? "session" : "accessKey")
            writer.string("createdAt", RFC3339.string(milliseconds: session.createdAt))
            writer.string("lastUsedAt", RFC3339.string(milliseconds: session.lastUsedAt))
            writer.string("expiresAt", session.expiresAt.map { RFC3339.string(milliseconds: $0) })
            writer.raw("current", Array((session.isCurrent ? "true" : "false").utf8))
            array.append(contentsOf: writer.finish())
        }
        array.append(UInt8(ascii: "]"))
        var writer = JSONObjectWriter()
        writer.raw("sessions", array)
        return Self.json(.ok, writer.finish())
    }

    /// `DELETE /api/v1/sessions` → `200 {revoked: n}`: every token of the account but the
    /// one used.
    func deleteOtherSessions(_ request: HTTPRequest) async throws(RESTProblem) -> HTTPResponse {
        let token = try bearerToken(request)
        let revoked: Int
        do {
            revoked = try await sessions.revokeOtherSessions(token: token)
        } catch {
            throw Self.problem(error)
        }
        var writer = JSONObjectWriter()
        writer.integer("revoked", Int64(revoked))
        return Self.json(.ok, writer.finish())
    }

    /// `DELETE /api/v1/sessions/{id}` → `204`; an ID the account has no session of is `404`.
    func deleteSession(
        _ request: HTTPRequest, _ context: RequestContext
    ) async throws(RESTProblem) -> HTTPResponse {
        let token = try bearerToken(request)
        do {
            try await sessions.revokeSession(id: context.parameters["id"] ?? "", token: token)
        } catch {
            throw Self.problem(error)
        }
        return HTTPResponse(status: .noContent)
    }
}
