import Foundation
import MyNotesDomain
import MyNotesTesting
import Synchronization
import Telemetry
import Testing

/// A kept query answer belongs to its account: writes to other accounts leave it kept (a
/// hit reads nothing: the store is made to fail and the answer still comes), every kind of
/// write to its own account shows in the next query, and any commit by another process,
/// to whichever account, makes it stale.
@Suite("Query answers kept per account", .onTestThreads)
struct PerAccountAnswerCacheTests {
    /// An account with a password, two sessions and one note: queried with `token`, and
    /// written to with either session.
    struct Party {
        let email: String
        let token: String
        let otherToken: String
        let noteID: String
        static let password = "password 123"
    }

    /// Every kind of write a query's answer may depend on.
    enum Write: String, CaseIterable, Sendable {
        case legacyAdd, legacyModify, legacyRemove, restCreate, restUpdate, restDelete
        case tokenReset, signOut, otherSessionsSignedOut, passwordChange

        /// What the writing party's next query answers: its notes, or `nil` when the
        /// queried token no longer works.
        var notesAfter: [String]? {
            switch self {
            case .legacyAdd, .restCreate: ["After", "Before"]
            case .legacyModify, .restUpdate: ["Changed"]
            case .legacyRemove, .restDelete: []
            case .tokenReset, .signOut, .otherSessionsSignedOut, .passwordChange: nil
            }
        }
    }

    let fixture: LegacyFixture
    /// The service's clock: an answer is kept only until its session's next use is due to
    /// be recorded (a minute), and a test suspended that long by parallel tests' load must
    /// not see its answer expire.
    let clock = ManualClock()

    init() throws {
        fixture = try LegacyFixture(over: .socket, backend: .sqlite, clock: clock)
    }

    func party(_ email: String) throws -> Party {
        let token = try fixture.server.createAccount(email: email, password: Party.password)
        let signIn = try rest(
            "POST", "/api/v1/sessions", json: ["email": email, "password": Party.password])
        let otherToken = try #require(Self.json(signIn)["token"] as? String, "\(signIn.text)")
        let added = try legacy(
            [
                Parameter("action", "add"), Parameter("date", "2026-11-29"),
                Parameter("content", "Before"),
            ], as: Self.identity(email, token)
        ).reply()
        return Party(
            email: email, token: token, otherToken: otherToken, noteID: try #require(added.id))
    }

    static func identity(_ email: String, _ token: String) -> [Parameter] {
        [Parameter("email", email), Parameter("token", token)]
    }

    static func json(_ response: RawHTTPClient.Response) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
    }

    /// A REST request on the fixture's connection.
    func rest(
        _ method: String, _ path: String, token: String? = nil, json: [String: String]? = nil
    ) throws -> RawHTTPClient.Response {
        var headers = token.map { ["Authorization: Bearer \($0)"] } ?? []
        var body: [UInt8] = []
        if let json {
            headers.append("Content-Type: application/json")
            body = Array(try JSONSerialization.data(withJSONObject: json))
        }
        return try fixture.send(
            method, target: path, headers: headers, body: body, on: try fixture.newClient())
    }

    /// A legacy request (a POST), each on a connection of its own: the server may close a
    /// keep-alive connection between two requests (its deadlines, under the load of
    /// parallel tests), and some of these wait for the store in between.
    func legacy(_ parameters: [Parameter], as identity: [Parameter]) throws
        -> RawHTTPClient.Response
    {
        try fixture.post(
            body: Array(FormEncoding.encode(identity + parameters).utf8),
            on: try fixture.newClient())
    }

    /// The party's query: its notes' contents, or `nil` with the token refused (-9).
    func query(_ party: Party) throws -> [String]? {
        let reply = try legacy(
            [Parameter("action", "query")], as: Self.identity(party.email, party.token)
        ).reply()
        if reply.resultCode == -9 { return nil }
        guard reply.resultCode == 0 else { throw UnexpectedReply(reply) }
        return reply.record?.map(\.content) ?? []
    }

    /// The party's query answered with every store read failing: only a kept answer can
    /// succeed (`nil` when the store was asked).
    func keptAnswer(_ party: Party) throws -> [String]? {
        fixture.server.failStore([.accountLookup, .notes])
        defer { fixture.server.failStore([]) }
        let reply = try legacy(
            [Parameter("action", "query")], as: Self.identity(party.email, party.token)
        ).reply()
        return reply.resultCode == 0 ? reply.record?.map(\.content) ?? [] : nil
    }

    /// Returns once the store's search index has taken in every note written. Its batch
    /// is a commit of the store's own, touching no account's answers, but from the commit
    /// until the writer has published it the cache cannot tell it from another process's:
    /// an answer checked in that moment is read again. A test that checks a kept answer
    /// right after a write could meet the batch there (it did, once, under the sanitizer).
    func untilIndexed() throws {
        let store = try #require(fixture.server.store.monitoring)
        try Poll.until("the search index has taken in every note", timeout: .seconds(120)) {
            store.figures().searchIndexWaiting == 0
        }
    }

    /// A party whose query has been answered once, and whose answer is now kept.
    func queriedParty(_ email: String) throws -> Party {
        let queried = try party(email)
        try untilIndexed()
        #expect(try query(queried) == ["Before"])
        #expect(try keptAnswer(queried) == ["Before"])
        return queried
    }

    /// Performs `write` as `party` (through the server unless it is an operator's reset).
    func perform(_ write: Write, as party: Party) async throws {
        let legacy = Self.identity(party.email, party.token)
        let status: Int
        switch write {
        case .legacyAdd, .legacyModify, .legacyRemove:
            let action: [Parameter] =
                switch write {
                case .legacyAdd:
                    [
                        Parameter("action", "add"), Parameter("date", "2026-11-30"),
                        Parameter("content", "After"),
                    ]
                case .legacyModify:
                    [
                        Parameter("action", "modify"), Parameter("id", party.noteID),
                        Parameter("date", "2026-11-29"), Parameter("content", "Changed"),
                    ]
                default: [Parameter("action", "remove"), Parameter("id", party.noteID)]
                }
            status = try self.legacy(action, as: legacy).reply().resultCode
        case .restCreate:
            status = try rest(
                "POST", "/api/v1/notes", token: party.otherToken,
                json: ["content": "After", "date": "2026-11-30"]
            ).status
        case .restUpdate:
            status = try rest(
                "PATCH", "/api/v1/notes/\(party.noteID)", token: party.otherToken,
                json: ["content": "Changed"]
            ).status
        case .restDelete:
            status = try rest("DELETE", "/api/v1/notes/\(party.noteID)", token: party.otherToken)
                .status
        case .tokenReset:
            // What `mynotes-server accounts reset-token` does, here through this server's store.
            let replaced = try await fixture.server.store.replaceTokens(
                email: party.email, tokenHash: Array(repeating: 7, count: 32))
            status = replaced ? 0 : 1
        case .signOut:
            status = try rest("DELETE", "/api/v1/sessions/current", token: party.token).status
        case .otherSessionsSignedOut:
            status = try rest("DELETE", "/api/v1/sessions", token: party.otherToken).status
        case .passwordChange:
            status = try rest(
                "POST", "/api/v1/account/password", token: party.otherToken,
                json: ["currentPassword": Party.password, "newPassword": "new password 456"]
            ).status
        }
        #expect([0, 200, 201, 204].contains(status), "\(write) answered \(status)")
    }

    @Test("A write to another account leaves the answer kept", arguments: Write.allCases)
    func anotherAccountsWriteKeepsTheAnswer(write: Write) async throws {
        defer { fixture.server.shutdown() }
        let cat = try queriedParty("cat@example.com")
        let dan = try party("dan@example.com")

        try await perform(write, as: dan)
        try untilIndexed()
        #expect(try keptAnswer(cat) == ["Before"], "no store read after \(write) to dan")
        #expect(try query(dan) == write.notesAfter)
    }

    @Test("An answer is not kept past the minute after its session's last recorded use")
    func aKeptAnswerEndsWhenTheSessionsUseIsDueToBeRecorded() throws {
        defer { fixture.server.shutdown() }
        let cat = try queriedParty("cat@example.com")

        clock.advance(by: .seconds(59))
        #expect(try keptAnswer(cat) == ["Before"])
        clock.advance(by: .seconds(30))
        #expect(try keptAnswer(cat) == nil, "the store is asked again")
        #expect(try query(cat) == ["Before"])
        #expect(try keptAnswer(cat) == ["Before"], "kept again after the use is recorded")
    }

    @Test("Every write to the account shows in its next query", arguments: Write.allCases)
    func ownWriteShowsInTheNextQuery(write: Write) async throws {
        defer { fixture.server.shutdown() }
        let cat = try queriedParty("cat@example.com")

        try await perform(write, as: cat)
        #expect(try query(cat) == write.notesAfter)
    }

    /// Another process's commit: to the queried account, to another one, or to another
    /// one followed by this server's own write to a third (after which the WAL index shows
    /// this server's commit last again: only the writer's check inside its transaction
    /// sees the other process's).
    enum ForeignCommit: String, CaseIterable, Sendable {
        case toTheAccount, toAnotherAccount, toAnotherAccountThenOwnWrite
    }

    @Test(
        "Another process's commit to any account makes the answer stale",
        arguments: ForeignCommit.allCases)
    func anotherProcessesCommitInvalidates(commit: ForeignCommit) async throws {
        defer { fixture.server.shutdown() }
        let cat = try queriedParty("cat@example.com")
        let dan = try party("dan@example.com")

        let path = fixture.server.directory.appendingPathComponent("notes.sqlite").path
        let target = commit == .toTheAccount ? cat.email : dan.email
        try BulkNotes.insert(1, email: target, into: path, date: "2026-11-30") { _ in "Elsewhere" }
        if commit == .toAnotherAccountThenOwnWrite {
            try await perform(.legacyAdd, as: try party("eve@example.com"))
        }
        #expect(try keptAnswer(cat) == nil, "the store is asked again")
        let expected = commit == .toTheAccount ? ["Elsewhere", "Before"] : ["Before"]
        #expect(try query(cat) == expected)
    }

    /// Queries on several connections race adds to the same account: every answer holds at
    /// least every note whose add was acknowledged before the query was sent.
    @Test("No answer is older than the last acknowledged write")
    func racingQueriesNeverMissAnAcknowledgedWrite() throws {
        defer { fixture.server.shutdown() }
        let adds = 150
        let acknowledged = Atomic<Int>(0)
        let server = fixture.server
        let fay = Party(
            email: "fay@example.com", token: try server.createAccount(email: "fay@example.com"),
            otherToken: "", noteID: "")
        let token = fay.token
        let queryString = FormEncoding.encode(
            Self.identity("fay@example.com", token) + [Parameter("action", "query")])
        let results = SimultaneousRequests.statuses(7, timeout: .seconds(120)) { index in
            guard let client = try? RawHTTPClient(port: server.port) else { return -1 }
            if index == 0 {
                for n in 1...adds {
                    let body = FormEncoding.encode(
                        Self.identity("fay@example.com", token) + [
                            Parameter("action", "add"), Parameter("date", "2026-11-29"),
                            Parameter("content", "n\(n)"),
                        ])
                    let head =
                        "POST \(LegacyFixture.defaultPath) HTTP/1.1\r\nHost: test\r\n"
                        + "Content-Type: application/x-www-form-urlencoded\r\n"
                        + "Content-Length: \(body.utf8.count)\r\n\r\n"
                    guard (try? client.send(Array((head + body).utf8)))?.resultCode == 0 else {
                        return -2
                    }
                    acknowledged.store(n, ordering: .sequentiallyConsistent)
                }
                return 0
            }
            var stale = 0
            var queries = 0
            while acknowledged.load(ordering: .sequentiallyConsistent) < adds || queries == 0 {
                let before = acknowledged.load(ordering: .sequentiallyConsistent)
                let head =
                    "GET \(LegacyFixture.defaultPath)?\(queryString) HTTP/1.1\r\nHost: test\r\n\r\n"
                guard let reply = try? client.send(Array(head.utf8)).reply(),
                    reply.resultCode == 0
                else { return -3 }
                let seen = Set((reply.record ?? []).map(\.content))
                if !(1...max(1, before)).allSatisfy({ before == 0 || seen.contains("n\($0)") }) {
                    stale += 1
                }
                queries += 1
            }
            return stale
        }
        let outcomes = try #require(results, "every connection finished in time")
        #expect(outcomes.allSatisfy { $0 >= 0 }, "every request was answered: \(outcomes)")
        #expect(outcomes.reduce(0) { $0 + max(0, $1) } == 0, "stale answers: \(outcomes)")
        #expect(try query(fay)?.count == adds)
    }
}
