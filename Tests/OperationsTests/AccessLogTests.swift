import Foundation
import HTTPCore
import MyNotesTesting
import ServerLogging
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The access log: what a line holds and hides, its writer's thread, and SIGHUP.
@Suite struct AccessLogTests {
    static func entry(query: String?, userAgent: String? = "curl/8") -> AccessLogEntry {
        AccessLogEntry(
            time: 1_796_000_000_123, clientAddress: "192.0.2.7", method: "GET",
            path: "/mynotes/webservice.php", rawQuery: query.map { Array($0.utf8) }, status: 200,
            bytes: 52, duration: .microseconds(1_234), requestID: "abc-1", referer: nil,
            userAgent: userAgent)
    }

    @Test(arguments: [
        (
            "email=ann@example.com&token=s3cret&action=query",
            "email=REDACTED&token=REDACTED&action=query"
        ),
        (
            "action=add&content=Buy+milk&date=2026-12-01",
            "action=add&content=REDACTED&date=2026-12-01"
        ),
        ("%74oken=s3cret&Password=pw&q=milk", "%74oken=REDACTED&Password=REDACTED&q=REDACTED"),
        ("EMAIL=a&ACCESS_TOKEN=b&id=3&flag", "EMAIL=REDACTED&ACCESS_TOKEN=REDACTED&id=3&flag"),
    ])
    func secretsInTheQueryAreNeverWritten(query: String, written: String) {
        let entry = Self.entry(query: query)
        #expect(entry.target == "/mynotes/webservice.php?" + written)
        for line in [entry.combinedLine, entry.jsonLine] {
            for secret in ["s3cret", "ann@example.com", "Buy+milk", "=pw", "=milk"] {
                #expect(!line.contains(secret))
            }
        }
    }

    @Test func aCombinedLine() {
        #expect(
            Self.entry(query: "action=query").combinedLine
                == #"192.0.2.7 - - [2026-11-30T00:53:20.123Z] "GET /mynotes/webservice.php?action=query" 200 52 "-" "curl/8" 0.001234 abc-1"#
        )
    }

    @Test(arguments: [("", ""), ("a=1&", "a=1&"), ("&token=&&", "&token=REDACTED&&")])
    func oddQueriesKeepTheirShape(query: String, written: String) {
        #expect(Self.entry(query: query).target == "/mynotes/webservice.php?" + written)
    }

    @Test func quotesAndControlCharactersInAFieldAreEscaped() {
        let line = Self.entry(query: nil, userAgent: "say \"hi\"\n").combinedLine
        #expect(line.contains(#" "say \"hi\"\n" "#))
        #expect(!line.contains("\n"))
        #expect(Self.entry(query: nil, userAgent: "").combinedLine.contains(#" "-" "-" "#))
    }

    @Test func aJSONLine() throws {
        let line = Self.entry(query: nil, userAgent: "say \"hi\"\n").jsonLine
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["path"] as? String == "/mynotes/webservice.php")
        #expect(object["status"] as? Int == 200)
        #expect(object["bytes"] as? Int == 52)
        #expect(object["duration_seconds"] as? Double == 0.001234)
        #expect(object["request_id"] as? String == "abc-1")
        #expect(object["client"] as? String == "192.0.2.7")
        #expect(object["user_agent"] as? String == "say \"hi\"\n")
        #expect(object["referer"] is NSNull)
        #expect(!line.contains("\n"))
    }

    @Test func aFullBufferDropsAndCountsInsteadOfBlocking() throws {
        let fixture = try OperationsFixture()
        defer { fixture.remove() }
        // A FIFO nobody reads: the writer thread blocks once the pipe is full.
        let fifo = fixture.path("access.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        let writer = try AccessLogWriter(destination: .file(path: fifo), capacity: 4)
        let big = Self.entry(query: nil, userAgent: String(repeating: "x", count: 8_192))
        let started = ContinuousClock.now
        var recorded = 0
        try Poll.until("an entry dropped", timeout: .seconds(10)) {
            writer.record(big)
            recorded += 1
            return writer.droppedEntries > 0
        }
        let elapsed = ContinuousClock.now - started
        // Every record() returned although the writer was stuck.
        #expect(recorded > 4)
        #expect(elapsed < .seconds(10))
        // Unblock the writer: read and throw away until it has written what it kept.
        var buffer = [UInt8](repeating: 0, count: 65_536)
        try Poll.until("the kept entries written") {
            _ = read(reader, &buffer, buffer.count)
            return writer.writtenEntries + writer.droppedEntries == recorded
        }
        writer.close()
        close(reader)
    }

    @Test func theServerLogsEachRequestAndReopensOnSIGHUP() throws {
        let fixture = try OperationsFixture()
        defer { fixture.remove() }
        let log = fixture.path("access.log")
        let server = try ServerProcess(
            database: fixture.location, arguments: ["--access-log", log, "--log-format", "json"])
        defer { server.stop(signal: SIGTERM) }
        let response = try httpRequest(
            port: server.port,
            "/mynotes/webservice.php?email=ann@example.com&token=s3cret&action=query",
            headers: ["User-Agent": "ops-test"])
        let requestID = try #require(response.header("X-Request-ID"))
        func lines(_ path: String) -> [String] {
            ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "")
                .split(separator: "\n").map(String.init)
        }
        try Poll.until("the request's access-log line") { lines(log).count == 1 }
        let text = lines(log)[0]
        #expect(!text.contains("s3cret"))
        #expect(!text.contains("ann@example.com"))
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["request_id"] as? String == requestID)
        #expect(object["status"] as? Int == response.status)
        #expect(object["bytes"] as? Int == response.body.count)
        #expect(object["method"] as? String == "GET")
        #expect(object["client"] as? String == "127.0.0.1")
        #expect(object["user_agent"] as? String == "ops-test")
        #expect((object["duration_seconds"] as? Double ?? -1) >= 0)

        // logrotate: move the file, SIGHUP, and the next line goes to a new file.
        let rotated = fixture.path("access.log.1")
        try FileManager.default.moveItem(atPath: log, toPath: rotated)
        kill(server.process.processIdentifier, SIGHUP)
        try Poll.until("the reopened log's first line") {
            _ = try httpRequest(port: server.port, "/healthz")
            return !lines(log).isEmpty
        }
        // The query's line stayed in the rotated file (with /healthz lines sent before the
        // signal was handled); the new file has only lines after it.
        #expect(lines(rotated).first == text)
        #expect(lines(rotated).dropFirst().allSatisfy { $0.contains(#""path":"/healthz""#) })
        #expect(lines(log).allSatisfy { $0.contains(#""path":"/healthz""#) })
    }
}
