import BoundedExecution
import Dispatch
import Foundation
import MyNotesDomain
import MyNotesService
import MyNotesTesting
import SQLiteStore
import Testing

/// The bounded queues of the asynchronous request path, over real HTTP: work that would
/// pile up is refused at once (503 + Retry-After, legacy -3), password hashing never
/// holds a thread that serves connections, and concurrent writes all commit.
@Suite("Admission control and the async path")
struct AdmissionTests {
    /// An executor of one thread and a queue of one, both taken: the next job is refused.
    final class FullExecutor: Sendable {
        let executor: BoundedExecutor
        private let release = DispatchSemaphore(value: 0)

        init(name: String) {
            executor = BoundedExecutor(
                name: name, limits: ExecutorLimits(threads: 1, queueLimit: 1))
            let started = DispatchSemaphore(value: 0)
            let release = release
            _ = executor.submit {
                started.signal()
                release.wait()
            }
            started.wait()
            _ = executor.submit {}
        }

        func free() { release.signal() }
    }

    static func get(_ target: String, token: String? = nil, port: Int) throws
        -> RawHTTPClient
        .Response
    {
        let authorization = token.map { "Authorization: Bearer \($0)\r\n" } ?? ""
        return try RawHTTPClient(port: port).send(
            "GET \(target) HTTP/1.1\r\nHost: t\r\n\(authorization)\r\n")
    }

    static func post(_ target: String, json: [String: String], port: Int) -> RawHTTPClient? {
        guard let client = try? RawHTTPClient(port: port),
            let body = try? JSONSerialization.data(withJSONObject: json)
        else { return nil }
        client.write(
            "POST \(target) HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.count)\r\n\r\n" + String(decoding: body, as: UTF8.self))
        return client
    }

    static func json(_ response: RawHTTPClient.Response) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
    }

    static func legacyQuery(token: String) -> String {
        "/mynotes/webservice.php?email=ann@example.com&type=JSON&action=query&token=\(token)"
    }

    @Test func aFullReadQueueIs503WithRetryAfterOnBothAPIsAtOnce() throws {
        let readers = FullExecutor(name: "held-reader")
        let server = try TestServer(.init(reading: readers.executor))
        var freed = false
        defer {
            if !freed { readers.free() }
            server.shutdown()
        }
        let token = try server.createAccount(email: "ann@example.com")
        // Given the store's reader thread busy and its queue full
        // Then a legacy query is its -3 answer, as HTTP 503 with Retry-After
        let legacy = try Self.get(Self.legacyQuery(token: token), port: server.port)
        #expect(legacy.status == 503)
        #expect(legacy.header("Retry-After") == "1")
        #expect(Self.json(legacy)["ResultCode"] as? Int == -3)
        // And a REST read is a 503 problem with a stable code and Retry-After
        let rest = try Self.get("/api/v1/notes", token: token, port: server.port)
        #expect(rest.status == 503)
        #expect(rest.header("Retry-After") == "1")
        #expect(rest.header("Content-Type")?.hasPrefix("application/problem+json") == true)
        #expect(Self.json(rest)["code"] as? Int == 503)
        // When the queue drains, the same requests are served
        readers.free()
        freed = true
        try Poll.until("the query served again") {
            (try? Self.get(Self.legacyQuery(token: token), port: server.port).status) == 200
        }
        #expect(try Self.get("/api/v1/notes", token: token, port: server.port).status == 200)
    }

    @Test func signInsWaitingForAHashDoNotDelayAQueryAndAFullHashQueueIs503() throws {
        let server = try TestServer(
            .init(threads: 1, hashing: ExecutorLimits(threads: 1, queueLimit: 2)))
        defer { server.shutdown() }
        let credentials = ["email": "ann@example.com", "password": "correct horse"]
        let signUp = try #require(
            Self.post("/api/v1/accounts", json: credentials, port: server.port))
        let token = try #require(Self.json(try signUp.readResponse())["token"] as? String)
        // Given the hashing thread busy, and two sign-ins waiting for it
        let hashing = server.hashing
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        _ = hashing.submit {
            started.signal()
            release.wait()
        }
        started.wait()
        let signIns = (0..<2).compactMap { _ in
            Self.post("/api/v1/sessions", json: credentials, port: server.port)
        }
        try Poll.until("two sign-ins waiting for the hash") { hashing.waitingJobs == 2 }
        // Then a legacy query on the server's only thread is answered meanwhile
        let query = try Self.get(Self.legacyQuery(token: token), port: server.port)
        #expect(query.status == 200)
        #expect(Self.json(query)["ResultCode"] as? Int == 0)
        // And one sign-in more than the queue holds is refused at once
        let refused = try #require(
            Self.post("/api/v1/sessions", json: credentials, port: server.port)
        )
        .readResponse()
        #expect(refused.status == 503)
        #expect(refused.header("Retry-After") == "1")
        // When the hashing thread is free, the waiting sign-ins succeed
        release.signal()
        for client in signIns { #expect(try client.readResponse().status == 201) }
    }

    @Test func concurrentAddsOnOneThreadAreAllAcknowledgedAfterTheirCommit() async throws {
        let server = try TestServer(.init(threads: 1, backend: .sqlite))
        let token = try server.createAccount(email: "ann@example.com")
        // Given 64 adds in flight at once on one HTTP thread
        let clients = try (0..<64).map { _ in try RawHTTPClient(port: server.port) }
        for (index, client) in clients.enumerated() {
            client.write(
                "GET /mynotes/webservice.php?email=ann@example.com&token=\(token)&action=add"
                    + "&date=2026-11-29&content=n\(index) HTTP/1.1\r\nHost: t\r\n\r\n")
        }
        // Then every one is acknowledged with its own ID
        var ids: Set<Int64> = []
        for client in clients {
            let reply = Self.json(try client.readResponse())
            #expect(reply["ResultCode"] as? Int == 0)
            if let id = (reply["ID"] as? String).flatMap({ Int64($0) }) { ids.insert(id) }
        }
        #expect(ids.count == 64)
        // And every acknowledged note is in the database file, read by a store of its own
        let other = try SQLiteNoteStore(
            path: server.directory.appendingPathComponent("notes.sqlite").path)
        defer {
            other.close()
            server.shutdown()
        }
        let account = try #require(try await other.account(email: "ann@example.com"))
        let notes = try await other.notes(account: account.id, page: NotePage(limit: 100))
        #expect(Set(notes.map(\.id)) == ids)
    }
}
