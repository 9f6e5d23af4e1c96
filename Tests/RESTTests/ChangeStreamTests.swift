import Foundation
import MyNotesDomain
import MyNotesService
import MyNotesTesting
import Testing

/// `GET /api/v1/changes/stream` over real HTTP: writes reach an open stream at
/// once, a stream resumes without gap or repeat, heartbeats, accounts kept apart, limits.
@Suite struct ChangeStreamTests {
    static func server(_ configure: (inout ChangeFeedConfiguration) -> Void = { _ in }) throws
        -> TestServer
    {
        var options = TestServer.Options()
        configure(&options.changeFeed)
        return try TestServer(options)
    }

    /// Opens a stream and reads its first block, which says where it starts.
    static func open(
        _ server: TestServer, token: String?, headers: [String: String] = [:],
        query: String = ""
    ) async throws -> (EventStreamClient, start: String?) {
        let stream = try EventStreamClient(
            port: server.port, path: "/api/v1/changes/stream" + query, token: token,
            headers: headers)
        let head = try await stream.head()
        #expect(head.status == 200)
        #expect(head.header("Content-Type")?.hasPrefix("text/event-stream") == true)
        #expect(head.header("Cache-Control") == "no-store")
        let first = try await stream.next()
        #expect(first.retry == "3000")
        return (stream, first.id)
    }

    /// Adds, changes and removals reach an open stream as events of their kind. (How fast
    /// is measured against a server process, ChangeStreamProcessTests: in this process the
    /// test's own blocking calls share the task threads with the server.)
    @Test func everyWriteReachesAnOpenStreamAsAnEventOfItsKind() async throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let client = try RESTClient(server, over: .socket).signUp("ann@example.com")
        let (stream, start) = try await Self.open(server, token: client.token)
        defer { stream.disconnect() }
        #expect(start == "0")
        var last = 0
        var cursors: [Int] = []
        for index in 0..<30 {
            let id: Int
            switch index % 3 {
            case 0: id = try #require(try client.createNote("note \(index)").note["id"] as? Int)
            case 1:
                id = last
                #expect(
                    try client.send("PATCH", "/api/v1/notes/\(id)", json: ["content": "v2"]).status
                        == 200)
            default:
                id = last
                #expect(try client.send("DELETE", "/api/v1/notes/\(id)").status == 204)
            }
            last = id
            let event = try await stream.nextEvent()
            #expect(event.event == "change")
            #expect(event.id == event.json["cursor"] as? String)
            cursors.append(Int(event.id ?? "") ?? -1)
            #expect(event.json["id"] as? Int == id)
            #expect(event.json["type"] as? String == ["created", "updated", "deleted"][index % 3])
            #expect(event.json["version"] as? Int == [1, 2, 2][index % 3])
        }
        #expect(cursors == Array(1...30))
    }

    enum Resume: String, CaseIterable, Sendable { case lastEventID, sinceParameter }

    @Test(arguments: Resume.allCases)
    func aResumedStreamMissesNothingAndRepeatsNothing(_ resume: Resume) async throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let client = try RESTClient(server, over: .socket).signUp("ann@example.com")
        _ = try client.createNote("before the stream")
        let (stream, start) = try await Self.open(server, token: client.token)
        #expect(start == "1")
        var ids: [Int] = []
        for index in 0..<5 {
            ids.append(try #require(try client.createNote("n\(index)").note["id"] as? Int))
        }
        var received: [Int] = []
        var lastEventID = ""
        for _ in 0..<3 {
            let event = try await stream.nextEvent()
            received.append(try #require(event.json["id"] as? Int))
            lastEventID = try #require(event.id)
        }
        stream.disconnect()
        try await stream.end()
        // Written while no stream is open; then one updated, to be seen once, as updated.
        for index in 5..<8 {
            ids.append(try #require(try client.createNote("n\(index)").note["id"] as? Int))
        }
        #expect(
            try client.send("PATCH", "/api/v1/notes/\(ids[0])", json: ["content": "x"]).status
                == 200)
        let (resumed, resumedAt) =
            switch resume {
            case .lastEventID:
                try await Self.open(
                    server, token: client.token, headers: ["Last-Event-ID": lastEventID])
            case .sinceParameter:
                try await Self.open(server, token: client.token, query: "?since=\(lastEventID)")
            }
        defer { resumed.disconnect() }
        #expect(resumedAt == lastEventID)
        var types: [String] = []
        for _ in 0..<6 {
            let event = try await resumed.nextEvent()
            received.append(try #require(event.json["id"] as? Int))
            types.append(try #require(event.json["type"] as? String))
        }
        // ids[0] was received before the break as created, now once more as updated.
        #expect(received == Array(ids[0..<3]) + Array(ids[3..<8]) + [ids[0]])
        #expect(types == ["created", "created", "created", "created", "created", "updated"])
    }

    @Test func anIdleStreamSendsHeartbeats() async throws {
        let server = try Self.server { $0.heartbeat = .milliseconds(100) }
        defer { server.shutdown() }
        let client = try RESTClient(server).signUp("ann@example.com")
        let (stream, _) = try await Self.open(server, token: client.token)
        defer { stream.disconnect() }
        for _ in 0..<2 {
            let block = try await stream.next(within: .seconds(5))
            #expect(block.comment == "heartbeat")
            #expect(block.data == nil)
        }
    }

    @Test func aStreamCarriesOnlyItsOwnAccountsChanges() async throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let anonymous = RESTClient(server)
        let ann = try anonymous.signUp("ann@example.com")
        let bob = try anonymous.signUp("bob@example.com")
        let (annStream, _) = try await Self.open(server, token: ann.token)
        defer { annStream.disconnect() }
        let (bobStream, _) = try await Self.open(server, token: bob.token)
        defer { bobStream.disconnect() }
        let bobs = try #require(try bob.createNote("Bob's").note["id"] as? Int)
        let anns = try #require(try ann.createNote("Ann's").note["id"] as? Int)
        #expect(try await annStream.nextEvent().json["id"] as? Int == anns)
        #expect(try await bobStream.nextEvent().json["id"] as? Int == bobs)
        // Bob cannot read Ann's feed with a cursor of hers either: his own answers.
        for (headers, status) in [
            ([String: String](), 401), (["Authorization": "Bearer nope"], 401),
        ] {
            let refused = try EventStreamClient(port: server.port, token: nil, headers: headers)
            #expect(try await refused.head().status == status)
            let problem = try await refused.end()
            #expect(String(decoding: problem, as: UTF8.self).contains("\"status\":\(status)"))
        }
        let bad = try EventStreamClient(
            port: server.port, token: bob.token, headers: ["Last-Event-ID": "x1"])
        #expect(try await bad.head().status == 400)
        let expired = try EventStreamClient(
            port: server.port, token: bob.token, headers: ["Last-Event-ID": "99"])
        #expect(try await expired.head().status == 410)
    }

    enum Revocation: String, CaseIterable, Sendable { case signOut, otherSessionsSignedOut }

    /// A stream lives no longer than its token: revoked, the stream ends at its next
    /// wakeup, before the change that woke it is sent.
    @Test(arguments: Revocation.allCases)
    func aStreamEndsWhenItsTokenIsRevoked(_ revocation: Revocation) async throws {
        let server = try Self.server()
        defer { server.shutdown() }
        let anonymous = RESTClient(server, over: .socket)
        let first = try anonymous.signUp("ann@example.com")
        let signIn = try anonymous.send(
            "POST", "/api/v1/sessions",
            json: ["email": "ann@example.com", "password": "password 123"])
        let second = anonymous.with(token: try #require(signIn.json["token"] as? String))
        let (stream, _) = try await Self.open(server, token: second.token)
        defer { stream.disconnect() }
        _ = try first.createNote("seen")
        #expect(try await stream.nextEvent().json["type"] as? String == "created")
        switch revocation {
        case .signOut:
            #expect(try second.send("DELETE", "/api/v1/sessions/current").status == 204)
        case .otherSessionsSignedOut:
            #expect(try first.send("DELETE", "/api/v1/sessions").status == 200)
        }
        _ = try first.createNote("not for a revoked token")
        try await stream.end()
        #expect(stream.endedCleanly)
        await #expect(throws: RawHTTPClient.Failure.self) { try await stream.nextEvent() }
        // Reconnecting with it is refused.
        let again = try EventStreamClient(port: server.port, token: second.token)
        #expect(try await again.head().status == 401)
    }

    /// A client that stops reading holds at most the stream's buffer (and the sockets'):
    /// once it has taken nothing for the stall limit, its stream is dropped, its place
    /// freed, and it resumes after the last event it did read, missing nothing.
    @Test func aClientThatStopsReadingIsDroppedAndResumes() async throws {
        let server = try Self.server {
            $0.streamsPerAccount = 1
            $0.streamBufferBytes = 4_096
            // Long enough for a reading client on a loaded machine, with 64 KiB events.
            $0.stallLimit = .seconds(2)
            $0.heartbeat = .milliseconds(50)
        }
        defer { server.shutdown() }
        let client = try RESTClient(server).signUp("ann@example.com")
        let slow = try EventStreamClient(port: server.port, token: client.token, paused: true)
        defer { slow.disconnect() }
        // More than the loopback sockets hold (their buffers grow to a few MiB).
        let content = String(repeating: "x", count: 65_000)
        var ids: [Int] = []
        for _ in 0..<150 {
            ids.append(try #require(try client.createNote(content).note["id"] as? Int))
        }
        // The one place of the account is free again once the slow stream is dropped.
        let probe = try await Self.openOnceFree(server, token: client.token)
        probe.disconnect()
        slow.resume()
        var received: [Int] = []
        var lastID = ""
        while let event = try? await slow.nextEvent() {
            received.append(event.json["id"] as? Int ?? -1)
            lastID = event.id ?? lastID
        }
        #expect(slow.endedCleanly)
        #expect(received.count < ids.count)
        #expect(received == Array(ids.prefix(received.count)))
        // The probe's place is freed at its next heartbeat.
        let resumed = try await Self.openOnceFree(
            server, token: client.token, headers: ["Last-Event-ID": lastID])
        defer { resumed.disconnect() }
        for id in ids.dropFirst(received.count) {
            #expect(try await resumed.nextEvent().json["id"] as? Int == id)
        }
    }

    /// A stream opened as soon as the account has a free place (429 until then), within 20 s.
    static func openOnceFree(
        _ server: TestServer, token: String?, headers: [String: String] = [:]
    ) async throws -> EventStreamClient {
        var opened: EventStreamClient?
        try await Poll.until(
            "a free place for a stream", timeout: .seconds(20), every: .milliseconds(20)
        ) {
            let stream = try EventStreamClient(port: server.port, token: token, headers: headers)
            let status = try await stream.head().status
            if status == 200 {
                opened = stream
                return true
            }
            stream.disconnect()
            #expect(status == 429)
            return false
        }
        return try #require(opened)
    }

    @Test func anAccountsStreamsAreBounded() async throws {
        let server = try Self.server {
            $0.streamsPerAccount = 2
            $0.heartbeat = .milliseconds(50)
        }
        defer { server.shutdown() }
        let client = try RESTClient(server).signUp("ann@example.com")
        let (first, _) = try await Self.open(server, token: client.token)
        let (second, _) = try await Self.open(server, token: client.token)
        defer { second.disconnect() }
        let third = try EventStreamClient(port: server.port, token: client.token)
        let refused = try await third.head()
        #expect(refused.status == 429)
        #expect(refused.header("Retry-After") == "3")
        // A stream whose client left frees its place (found at its next heartbeat).
        first.disconnect()
        try await Self.openOnceFree(server, token: client.token).disconnect()
    }
}
