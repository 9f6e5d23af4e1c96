import Foundation
import MyNotesDomain
import MyNotesService
import MyNotesTesting
import Testing

/// Users once could not change their password, nor see or revoke their other
/// sessions. Now `POST /api/v1/account/password` (the current password required) revokes
/// every other token, and `GET`/`DELETE /api/v1/sessions[/{id}]` list and revoke them,
/// never showing a token.
@Suite struct PasswordChangeAndSessionsTests {
    let server: TestServer
    let anonymous: RESTClient

    init() throws {
        server = try TestServer(.init(signInLimits: SignInLimits(perAccount: 3, perAddress: 50)))
        anonymous = RESTClient(server)
    }

    func signIn(_ password: String = "password 123") throws -> RESTClient.Response {
        try anonymous.send(
            "POST", "/api/v1/sessions", json: ["email": "ann@example.com", "password": password])
    }

    func client(_ response: RESTClient.Response) -> RESTClient {
        anonymous.with(token: response.json["token"] as? String)
    }

    func sessions(_ client: RESTClient) throws -> [[String: Any]] {
        try client.send("GET", "/api/v1/sessions").json["sessions"] as? [[String: Any]] ?? []
    }

    @Test func aPasswordChangeSignsOutEveryOtherSession() throws {
        defer { server.shutdown() }
        let phone = try anonymous.signUp("ann@example.com")
        let laptop = client(try signIn())
        let key = try server.createAccount(email: "bob@example.com")
        let change = try laptop.send(
            "POST", "/api/v1/account/password",
            json: ["currentPassword": "password 123", "newPassword": "new password 456"])
        #expect(change.status == 204, "\(change.text)")
        #expect(try phone.send("GET", "/api/v1/notes").status == 401, "the other session ended")
        #expect(try laptop.send("GET", "/api/v1/notes").status == 200, "the one used stays")
        #expect(try signIn().status == 401, "the old password no longer works")
        #expect(try signIn("new password 456").status == 201)
        #expect(
            try anonymous.with(token: key).send("GET", "/api/v1/notes").status == 200,
            "another account's token is untouched")
    }

    @Test func theCurrentPasswordIsRequiredAndItsGuessesAreThrottled() throws {
        defer { server.shutdown() }
        let ann = try anonymous.signUp("ann@example.com")
        let other = client(try signIn())
        let wrong = ["currentPassword": "stolen token, no password", "newPassword": "attacker 123"]
        for _ in 0..<3 {
            let refused = try ann.send("POST", "/api/v1/account/password", json: wrong)
            #expect(refused.status == 403)
            #expect(refused.detail == "The current password is wrong.")
        }
        let throttled = try ann.send("POST", "/api/v1/account/password", json: wrong)
        #expect(throttled.status == 429)
        #expect(throttled.header("Retry-After") != nil)
        #expect(try other.send("GET", "/api/v1/notes").status == 200, "nothing was revoked")
        let missing = try ann.send(
            "POST", "/api/v1/account/password", json: ["newPassword": "attacker 123"])
        #expect(missing.status == 422)
        let short = try ann.send(
            "POST", "/api/v1/account/password",
            json: ["currentPassword": "password 123", "newPassword": "short"])
        #expect(short.status == 422)
        #expect(short.detail.contains("newPassword"))
        let anonymousChange = try anonymous.send(
            "POST", "/api/v1/account/password",
            json: ["currentPassword": "password 123", "newPassword": "attacker 123"])
        #expect(anonymousChange.status == 401)
    }

    @Test func sessionsAreListedWithTheirTimesAndNeverTheirTokens() throws {
        defer { server.shutdown() }
        let signUp = try anonymous.send(
            "POST", "/api/v1/accounts",
            json: ["email": "ann@example.com", "password": "password 123"])
        let first = client(signUp)
        let second = try signIn()
        let listing = try first.send("GET", "/api/v1/sessions")
        #expect(listing.status == 200)
        for token in [signUp.json["token"], second.json["token"]].compactMap({ $0 as? String }) {
            #expect(!listing.text.contains(token))
        }
        let all = try sessions(first)
        #expect(all.count == 2)
        #expect(all.filter { $0["current"] as? Bool == true }.count == 1)
        #expect(Set(all.compactMap { $0["id"] as? String }).count == 2)
        for session in all {
            #expect(session["kind"] as? String == "session")
            for field in ["createdAt", "lastUsedAt", "expiresAt"] {
                let stamp = session[field] as? String ?? ""
                #expect(stamp.hasSuffix("Z") && stamp.count == 24, "\(field): \(stamp)")
            }
        }
        let key = try server.createAccount(email: "ops@example.com")
        let keys = try sessions(anonymous.with(token: key))
        #expect(keys.first?["kind"] as? String == "accessKey")
        #expect(keys.first?["expiresAt"] is NSNull)
    }

    @Test func aSessionCanBeRevokedByItsOwnerOnly() throws {
        defer { server.shutdown() }
        let ann = try anonymous.signUp("ann@example.com")
        let lost = client(try signIn())
        let bob = try anonymous.signUp("bob@example.com")
        let lostID = try #require(
            try sessions(ann).first { $0["current"] as? Bool == false }?["id"] as? String)
        let foreign = try bob.send("DELETE", "/api/v1/sessions/\(lostID)")
        #expect(foreign.status == 404, "another account's session is not found")
        #expect(try lost.send("GET", "/api/v1/notes").status == 200)
        #expect(try ann.send("DELETE", "/api/v1/sessions/\(lostID)").status == 204)
        #expect(try lost.send("GET", "/api/v1/notes").status == 401)
        #expect(try ann.send("DELETE", "/api/v1/sessions/\(lostID)").status == 404)
        #expect(try ann.send("DELETE", "/api/v1/sessions/not-an-id").status == 404)
        #expect(try sessions(ann).count == 1)
    }

    @Test func everyOtherSessionCanBeRevokedAtOnce() throws {
        defer { server.shutdown() }
        let ann = try anonymous.signUp("ann@example.com")
        let others = try (0..<3).map { _ in client(try signIn()) }
        let bob = try anonymous.signUp("bob@example.com")
        let revoked = try ann.send("DELETE", "/api/v1/sessions")
        #expect(revoked.status == 200)
        #expect(revoked.json["revoked"] as? Int == 3)
        for other in others { #expect(try other.send("GET", "/api/v1/notes").status == 401) }
        #expect(try ann.send("GET", "/api/v1/notes").status == 200)
        #expect(try bob.send("GET", "/api/v1/notes").status == 200)
        #expect(try ann.send("DELETE", "/api/v1/sessions").json["revoked"] as? Int == 0)
    }
}
