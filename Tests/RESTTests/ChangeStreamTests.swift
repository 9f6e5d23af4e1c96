import Foundation
import MyNotesService
import MyNotesTesting
import Testing

/// `GET /api/v1/changes/stream` (issue 12) over real HTTP: writes reach an open stream at
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
        let started = ContinuousClock.now
        while true {
            let again = try EventStreamClient(port: server.port, token: client.token)
            let head = try await again.head()
            if head.status == 200 {
                again.disconnect()
                break
            }
            #expect(head.status == 429)
            #expect(ContinuousClock.now - started < .seconds(10), "the place was never freed")
            if ContinuousClock.now - started >= .seconds(10) { break }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
