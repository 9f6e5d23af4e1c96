import Foundation
import MyNotesTesting
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Two `mynotes-server` processes on one PostgreSQL database behave as one server: what
/// one writes or decides, the other sees. Each test has a database of its own on the test
/// process's PostgreSQL cluster.
@Suite(.postgreSQLInstalled)
struct TwoInstanceTests {
    /// Two servers on a new database.
    static func pair(_ arguments: [String] = ["--auth-rate-limits", "unlimited"]) throws
        -> (ServerProcess, ServerProcess, database: String)
    {
        let cluster = try #require(try PostgreSQLCluster.shared())
        let database = try cluster.createDatabase()
        let options = ["--db-pool", "4"] + arguments
        let first = try ServerProcess(database: database, arguments: options)
        let second = try ServerProcess(database: database, arguments: options)
        return (first, second, database)
    }

    @Test func aSessionMadeOnOneServerWorksOnTheOther() throws {
        let (a, b, _) = try Self.pair()
        defer { [a, b].forEach { $0.stop(signal: SIGTERM) } }
        let onA = InstanceClient(port: a.port)
        let onB = InstanceClient(port: b.port)
        let token = try onA.signUp("ann@example.com")
        #expect(try onB.send("GET", "/api/v1/notes", token: token).status == 200)
        // Signed in on B, signed out on A: the session is gone on B too.
        let session = try onB.send(
            "POST", "/api/v1/sessions",
            json: ["email": "ann@example.com", "password": "password 123"])
        let second = try #require(session.json["token"] as? String)
        #expect(try onA.send("GET", "/api/v1/notes", token: second).status == 200)
        #expect(try onA.send("DELETE", "/api/v1/sessions/current", token: second).status == 204)
        #expect(try onB.send("GET", "/api/v1/notes", token: second).status == 401)
        #expect(try onB.send("GET", "/api/v1/notes", token: token).status == 200)
    }

    @Test func aNoteWrittenOnOneServerIsUpdatedOnTheOtherByItsETag() throws {
        let (a, b, _) = try Self.pair()
        defer { [a, b].forEach { $0.stop(signal: SIGTERM) } }
        let onA = InstanceClient(port: a.port)
        let onB = InstanceClient(port: b.port)
        let token = try onA.signUp("ann@example.com")
        let created = try onA.send(
            "POST", "/api/v1/notes", token: token,
            json: ["content": "Buy milk", "date": "2026-11-29"])
        #expect(created.status == 201)
        let id = try #require(created.json["id"] as? Int)
        let etag = try #require(created.header("ETag"))
        let read = try onB.send("GET", "/api/v1/notes/\(id)", token: token)
        #expect(read.header("ETag") == etag)
        #expect(read.json["content"] as? String == "Buy milk")
        let changed = try onB.send(
            "PATCH", "/api/v1/notes/\(id)", token: token, json: ["content": "Buy oat milk"],
            headers: ["If-Match": etag])
        #expect(changed.status == 200)
        let newTag = try #require(changed.header("ETag"))
        #expect(newTag != etag)
        // A's client still holds the old tag: its write is refused, whatever server it hits.
        let stale = try onA.send(
            "PATCH", "/api/v1/notes/\(id)", token: token, json: ["content": "Buy soy milk"],
            headers: ["If-Match": etag])
        #expect(stale.status == 412)
        #expect(stale.header("ETag") == newTag)
        #expect(
            try onA.send("GET", "/api/v1/notes/\(id)", token: token).json["content"] as? String
                == "Buy oat milk")
    }

    /// Pages walked on alternate servers while both servers add newer notes: every note
    /// that was there before the walk is listed once, in order, none skipped or repeated.
    @Test func keysetPagesStayCorrectWhileBothServersInsert() throws {
        let (a, b, _) = try Self.pair()
        defer { [a, b].forEach { $0.stop(signal: SIGTERM) } }
        let servers = [InstanceClient(port: a.port), InstanceClient(port: b.port)]
        let token = try servers[0].signUp("ann@example.com")
        var before: [Int] = []
        for day in 1...28 {
            let server = servers[day % 2]
            let created = try server.send(
                "POST", "/api/v1/notes", token: token,
                json: ["content": "old \(day)", "date": String(format: "2026-10-%02d", day)])
            before.append(try #require(created.json["id"] as? Int))
        }
        // Same-date notes too: the order within a date is by ID, across both servers' IDs.
        for index in 0..<6 {
            let created = try servers[index % 2].send(
                "POST", "/api/v1/notes", token: token,
                json: ["content": "same \(index)", "date": "2026-10-15"])
            before.append(try #require(created.json["id"] as? Int))
        }
        var added = 0
        var page = 0
        let walked = try servers[0].allNotes(token: token, limit: 5) {
            // Between pages: one newer note through each server, and the next page is read
            // on the other server.
            for server in servers {
                let created = try server.send(
                    "POST", "/api/v1/notes", token: token,
                    json: ["content": "new \(added)", "date": "2026-12-01"])
                #expect(created.status == 201)
                added += 1
            }
            page += 1
        }
        let listed = walked.compactMap { $0["id"] as? Int }
        #expect(Set(listed).count == listed.count, "a note was listed twice")
        #expect(Set(listed) == Set(before), "the walk skipped or invented notes")
        // Newest first: by date, then by ID within a date.
        let keys = walked.map { ($0["date"] as? String ?? "", $0["id"] as? Int ?? 0) }
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 > $1 })
        #expect(page >= 7)
    }

    /// Five wrong passwords spread over both servers lock the account on both, as five on
    /// one server would (SignInLimits: 5 per account in 15 minutes).
    @Test func failedSignInsOnBothServersCountTogether() throws {
        let (a, b, _) = try Self.pair([])
        defer { [a, b].forEach { $0.stop(signal: SIGTERM) } }
        let servers = [InstanceClient(port: a.port), InstanceClient(port: b.port)]
        _ = try servers[0].signUp("ann@example.com")
        let wrong: [String: Any] = ["email": "ann@example.com", "password": "wrong password"]
        for attempt in 0..<5 {
            #expect(
                try servers[attempt % 2].send("POST", "/api/v1/sessions", json: wrong).status == 401
            )
        }
        for server in servers {
            let refused = try server.send(
                "POST", "/api/v1/sessions",
                json: ["email": "ann@example.com", "password": "password 123"])
            #expect(refused.status == 429)
            #expect(Int(refused.header("Retry-After") ?? "") ?? 0 > 0)
        }
    }

    /// The throttle's race, on two servers: 16 wrong passwords released together, 8 to each,
    /// let exactly the limit (5 per account) reach the password check (401); every other
    /// is 429, because each server reserves its attempt in the shared table under a lock
    /// on the account's key before it hashes.
    @Test func sixteenParallelWrongPasswordsOnTwoServersLetExactlyTheLimitThrough() throws {
        let (a, b, _) = try Self.pair()
        defer { [a, b].forEach { $0.stop(signal: SIGTERM) } }
        let servers = [InstanceClient(port: a.port), InstanceClient(port: b.port)]
        _ = try servers[0].signUp("ann@example.com")
        let answered = try #require(
            SimultaneousRequests.statuses(16) { index in
                (try? servers[index % 2].send(
                    "POST", "/api/v1/sessions",
                    json: ["email": "ann@example.com", "password": "wrong password"]))?
                    .status ?? -1
            }, "every request answered")
        #expect(answered.filter { $0 == 401 }.count == 5, "\(answered.sorted())")
        #expect(answered.filter { $0 == 429 }.count == 11, "\(answered.sorted())")
    }

    /// The sign-up rate per address (a burst of 5, then one per 10 s) is one budget for
    /// both servers: twelve sign-ups from one address, alternating between them, get the
    /// burst and the refills their time allowed, and 429 after (a budget per server would
    /// let each take 5). Counted against the time taken, so that a slow run, whose
    /// sign-ups let a token refill, does not fail.
    @Test func theSignUpRateHoldsAcrossServers() throws {
        let (a, b, _) = try Self.pair([])
        defer { [a, b].forEach { $0.stop(signal: SIGTERM) } }
        let servers = [InstanceClient(port: a.port), InstanceClient(port: b.port)]
        // The standard sign-up rate per address (RateLimits.signUp).
        let (burst, interval) = (5, Duration.seconds(10))
        let began = ContinuousClock.now
        var statuses: [Int] = []
        for index in 0..<12 {
            statuses.append(
                try servers[index % 2].send(
                    "POST", "/api/v1/accounts",
                    json: ["email": "user\(index)@example.com", "password": "password 123"]
                ).status)
        }
        let refills = Int((ContinuousClock.now - began) / interval)
        let created = statuses.filter { $0 == 201 }.count
        #expect(created >= burst, "\(statuses)")
        #expect(created <= burst + refills, "\(statuses), \(refills) refills")
        #expect(statuses.allSatisfy { $0 == 201 || $0 == 429 }, "\(statuses)")
        #expect(Array(statuses.prefix(burst)) == Array(repeating: 201, count: burst))
    }
}
