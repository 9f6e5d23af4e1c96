import Foundation
import MyNotesKit
import MyNotesTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `mynotes watch`, `mynotes sync` and `--offline`, run as a person would.
@Suite("mynotes watch, sync and --offline")
struct LiveAndOfflineTests {
    /// The CLI running, its standard output read line by line as it prints.
    final class Running: @unchecked Sendable {
        let process = ChildProcess()
        private let output = Pipe()
        private let errors: ReadAll

        init(_ cli: CLI, _ arguments: [String]) throws {
            process.executableURL = CLI.executable
            process.arguments = arguments
            process.environment = cli.environment
            let error = Pipe()
            process.standardOutput = output
            process.standardError = error
            process.standardInput = FileHandle.nullDevice
            try process.run()
            errors = ReadAll(error.fileHandleForReading)
        }

        /// The next line, or what came of it within `timeout`; on a thread of its own.
        func nextLine(timeout: Duration = .seconds(20)) async -> String {
            let descriptor = output.fileHandleForReading.fileDescriptor
            return await withCheckedContinuation { continuation in
                Thread {
                    var line = Data()
                    let deadline = ContinuousClock.now + timeout
                    var reading = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                    while true {
                        let left = max(.zero, deadline - ContinuousClock.now)
                        guard poll(&reading, 1, Int32(left / .milliseconds(1))) > 0 else { break }
                        var byte: UInt8 = 0
                        guard read(descriptor, &byte, 1) == 1, byte != 0x0A else { break }
                        line.append(byte)
                    }
                    continuation.resume(returning: String(decoding: line, as: UTF8.self))
                }.start()
            }
        }

        /// Sends `signal` and waits (20 s at most) for the exit status.
        func stop(_ signal: Int32) async -> Int32 {
            kill(process.processIdentifier, signal)
            let process = self.process
            return await withCheckedContinuation { continuation in
                Thread {
                    if !process.waitUntilExit(timeout: .seconds(20)) {
                        kill(process.processIdentifier, SIGKILL)
                        process.waitUntilExit()
                    }
                    continuation.resume(returning: process.terminationStatus)
                }.start()
            }
        }

        var standardError: String { String(decoding: errors.wait(), as: UTF8.self) }
    }

    static func api(_ server: TestServer, _ cli: CLI) -> NotesAPIClient {
        NotesAPIClient(server: server.baseURL, token: cli.environment["MYNOTES_TOKEN"])
    }

    @Test(
        "watch prints another client's changes as they happen, and Ctrl-C ends it with 0",
        arguments: ["text", "json"])
    func watch(format: String) async throws {
        let server = try TestServer(.init(threads: 4))
        defer { server.shutdown() }
        let cli = try CLI.account(on: server)
        defer { cli.remove() }
        let api = Self.api(server, cli)
        let start = try await api.changes().cursor
        let watch = try Running(cli, ["watch", "--format", format, "--since", start.rawValue])

        let note = try await api.create("Buy milk\nand eggs", date: NoteDate("2026-12-01 09:00"))
        let created = await watch.nextLine()
        try await api.delete(id: note.id)
        let deleted = await watch.nextLine()
        if format == "text" {
            #expect(created == "created  \(note.id)  2026-12-01 09:00:00  Buy milk↵and eggs")
            #expect(deleted == "deleted  \(note.id)")
        } else {
            let first = try #require(
                try JSONSerialization.jsonObject(with: Data(created.utf8)) as? [String: Any])
            #expect(first["type"] as? String == "created")
            #expect(first["id"] as? Int == note.id)
            let body = try #require(first["note"] as? [String: Any])
            #expect(body["content"] as? String == "Buy milk\nand eggs")
            #expect(body["date"] as? String == "2026-12-01 09:00:00")
            let second = try #require(
                try JSONSerialization.jsonObject(with: Data(deleted.utf8)) as? [String: Any])
            #expect(second["type"] as? String == "deleted")
            #expect(second["note"] is NSNull)
            // A line's cursor resumes after it: nothing between the two is missed
            let resumed = try Running(
                cli,
                ["watch", "--format", "json", "--since", try #require(first["cursor"] as? String)])
            #expect(await resumed.nextLine() == deleted)
            #expect(await resumed.stop(SIGINT) == 0)
        }
        #expect(await watch.stop(SIGINT) == 0)
        #expect(watch.standardError.isEmpty)
    }

    @Test("watch carries on across a server restart, missing nothing")
    func watchAcrossRestart() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mynotes-watch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = "sqlite:" + folder.appendingPathComponent("notes.sqlite").path
        var server = try ServerProcess(database: database)
        let url = URL(string: "http://127.0.0.1:\(server.port)")!
        let session = try await NotesAPIClient(server: url).signUp(
            email: "ann@example.com", password: "correct horse battery")
        let api = NotesAPIClient(server: url, token: session.token)
        var cli = CLI()
        defer { cli.remove() }
        cli.environment["MYNOTES_SERVER"] = url.absoluteString
        cli.environment["MYNOTES_TOKEN"] = session.token
        let start = try await api.changes().cursor
        let watch = try Running(cli, ["watch", "--since", start.rawValue])

        let before = try await api.create("before the restart", date: NoteDate("2026-12-01"))
        let first = await watch.nextLine()
        #expect(first == "created  \(before.id)  2026-12-01  before the restart")
        #expect(server.stop(signal: SIGTERM) == 0)
        server = try ServerProcess(database: database, arguments: ["--port", "\(url.port!)"])
        let after = try await api.create("after the restart", date: NoteDate("2026-12-01"))
        let second = await watch.nextLine()
        #expect(second == "created  \(after.id)  2026-12-01  after the restart")
        #expect(await watch.stop(SIGINT) == 0)
        server.stop(signal: SIGTERM)
    }

    @Test("watch without a token, or with an expired cursor, fails with a message")
    func watchFailures() async throws {
        let clock = ManualClock()
        let server = try TestServer(.init(clock: clock))
        defer { server.shutdown() }
        let cli = try CLI.account(on: server)
        defer { cli.remove() }
        var tokenless = cli
        tokenless.environment["MYNOTES_TOKEN"] = nil
        let noToken = await tokenless.run(["watch"])
        #expect(noToken.status == 1)
        #expect(noToken.stderr.contains("watch needs the account's token"))
        #expect(await cli.run(["watch", "--format", "xml"]).status == 2)

        let api = Self.api(server, cli)
        let old = try await api.changes().cursor
        try await api.delete(id: try await api.create("short-lived").id)
        clock.advance(by: .seconds(31 * 86_400))
        let expired = await cli.run(["watch", "--since", old.rawValue])
        #expect(expired.status == 1)
        #expect(expired.stderr.hasPrefix("mynotes: "))
        #expect(expired.stderr.contains("expired"))
        #expect(expired.stdout.isEmpty)
    }

    @Test(
        "sync keeps a local copy; --offline works on it; the next sync pushes, keeping both on a conflict"
    )
    func offline() async throws {
        let server = try TestServer(.init(threads: 4))
        defer { server.shutdown() }
        let cli = try CLI.account(on: server)
        defer { cli.remove() }
        let api = Self.api(server, cli)
        let first = try await api.create("on the server", date: NoteDate("2026-12-01"))
        let second = try await api.create("edited on both sides", date: NoteDate("2026-12-01"))

        // No copy yet
        let none = await cli.run(["--offline", "list"])
        #expect(none.status == 1)
        #expect(none.stderr.contains("run 'mynotes sync' first"))

        let synced = await cli.run(["sync"])
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(synced.stdout.hasSuffix(": 2 changes in, 0 changes pushed. 2 notes in the copy.\n"))

        // Offline: changes show at once in the copy, and not on the server
        let added = await cli.run(["--offline", "add", "written offline", "--date", "2026-12-02"])
        #expect(added.stdout == "Added note new-1 (offline: pushed by the next 'mynotes sync').\n")
        #expect(
            await cli.run(["--offline", "edit", "new-1", "written offline, edited"]).status == 0)
        #expect(await cli.run(["--offline", "edit", "\(second.id)", "my side"]).status == 0)
        #expect(await cli.run(["--offline", "rm", "\(first.id)"]).status == 0)
        let list = await cli.run(["--offline", "list"])
        let secondID =
            String(repeating: " ", count: max(0, 5 - "\(second.id)".count))
            + "\(second.id)"
        #expect(
            list.stdout == """
                   ID  DATE        CONTENT
                new-1  2026-12-02  written offline, edited
                \(secondID)  2026-12-01  my side

                """)
        let found = await cli.run(["--offline", "search", "OFFLINE", "edited"])
        #expect(found.stdout.contains("new-1"))
        #expect(!found.stdout.contains("my side"))
        #expect((await cli.run(["--offline", "show", "new-1"])).stdout.contains("new-1"))
        #expect((await cli.run(["--offline", "list", "-f", "json"])).stdout.contains("\"ID\":0,"))
        let missing = await cli.run(["--offline", "show", "new-9"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no note new-9"))
        #expect(await cli.run(["--offline", "show", "new-x"]).status == 2)
        #expect(try await api.allNotes().count == 2)

        // Meanwhile another client changes the note edited here
        _ = try await api.update(id: second.id, content: "their side")

        let pushed = await cli.run(["sync"])
        #expect(pushed.status == 0, "\(pushed.stderr)")
        #expect(
            pushed.stdout.contains(
                "Note \(second.id) changed on the server too: both versions are kept, yours as a new note.\n"
            ))
        #expect(
            try await api.allNotes().map(\.content).sorted() == [
                "my side", "their side", "written offline, edited",
            ])
        let after = await cli.run(["--offline", "list"])
        #expect(!after.stdout.contains("new-"))
        #expect(after.stdout.contains("their side"))
    }
}
