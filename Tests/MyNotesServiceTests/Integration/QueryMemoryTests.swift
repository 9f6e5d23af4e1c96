import Foundation
import Locking
import MyNotesDomain
import MyNotesTesting
import SQLiteStore
import Testing

@testable import MyNotesService

/// A query over a large account, against the server as a process: its memory, read from
/// `/proc`, stays bounded whether the client reads the whole answer or stops reading.
@Suite("Query memory", .serialized)
struct QueryMemoryTests {
    /// A server process over a database with one account of `count` notes of about
    /// `noteBytes` each, on /dev/shm when there is one (the setup writes ~100 MB).
    final class LargeAccount {
        let directory: URL
        let token: String
        let smallToken: String
        let server: ServerProcess

        init(notes count: Int, noteBytes: Int) async throws {
            directory = TestServer.scratch.appendingPathComponent(
                "mynotes-memory-\(UUID().uuidString)")
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true)
            let path = directory.appendingPathComponent("notes.sqlite").path
            let store = try SQLiteNoteStore(path: path)
            token = try await AccountService(store: store).create(email: "big@example.com").1
            smallToken = try await AccountService(store: store).create(email: "small@example.com").1
            store.close()
            let filler = String(repeating: "x", count: noteBytes)
            try BulkNotes.insert(count, email: "big@example.com", into: path) { "\($0) \(filler)" }
            server = try ServerProcess(database: "sqlite:\(path)")
        }

        deinit {
            server.stop(signal: SIGKILL)
            try? FileManager.default.removeItem(at: directory)
        }

        var pid: Int32 { server.process.processIdentifier }

        /// The big account's query, or the small one's (no notes).
        func query(small: Bool = false) -> [UInt8] {
            let (email, token) =
                small ? ("small@example.com", smallToken) : ("big@example.com", self.token)
            return Array(
                ("GET /mynotes/webservice.php?email=\(FormEncoding.escape(email))"
                    + "&token=\(token)&action=query HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").utf8)
        }

        /// A field of /proc/PID/status in KiB: `VmHWM` (peak resident set), `RssAnon`…
        func statusKiB(_ field: String) throws -> Int {
            try QueryMemoryTests.statusKiB(field, of: pid)
        }

        /// `body`'s result and the highest `RssAnon` of the server while it ran.
        ///
        /// Anonymous memory is what the server allocates (heap, stacks). Its `VmHWM` also
        /// counts the database pages SQLite's readers map (`RssShmem` on /dev/shm,
        /// `RssFile` on disk): the kernel's page cache, shared and reclaimable, which
        /// grows with the data read however it is sent, so the peak of the server's own
        /// memory is sampled instead, every millisecond.
        func peakAnonymousKiB<Value>(while body: () throws -> Value) throws -> (Value, Int) {
            let pid = self.pid
            let peak = Lock(try statusKiB("RssAnon"))
            let sampler = PeriodicThread(every: .milliseconds(1)) {
                if let anon = try? QueryMemoryTests.statusKiB("RssAnon", of: pid) {
                    peak.withLock { $0 = max($0, anon) }
                }
            }
            defer { sampler.stop() }
            let value = try body()
            sampler.stop()
            return (value, max(peak.withLock { $0 }, try statusKiB("RssAnon")))
        }

        /// What the kernel's page cache mapped into the server: database pages.
        func mappedKiB() throws -> Int {
            try statusKiB("RssFile") + statusKiB("RssShmem")
        }
    }

    static func statusKiB(_ field: String, of pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            if let value = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) {
                return value
            }
        }
        throw BulkNotes.Failure(description: "no \(field) in /proc/\(pid)/status")
    }

    static let limitKiB = 32 << 10

    /// How many records a JSON query answer holds.
    static func records(in body: [UInt8]) -> Int {
        let marker = Array(#"{"ID":""#.utf8)
        return body.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return 0 }
            var count = 0
            var offset = 0
            while offset + marker.count <= bytes.count,
                let brace = memchr(base + offset, Int32(marker[0]), bytes.count - offset)
            {
                offset = base.distance(to: UnsafeRawPointer(brace))
                if offset + marker.count <= bytes.count,
                    memcmp(base + offset, marker, marker.count) == 0
                {
                    count += 1
                }
                offset += 1
            }
            return count
        }
    }

    @Test("A query over a 100 MB account grows the server's own memory by under 32 MB")
    func largeAnswerKeepsMemoryBounded() async throws {
        let notes = 100_000
        let account = try await LargeAccount(notes: notes, noteBytes: 1_000)
        let client = try RawHTTPClient(port: account.server.port, timeoutSeconds: 30)
        // A small answer first, so that what a first request sets up is in the baseline.
        #expect(try client.send(account.query(small: true)).status == 200)
        let before = (
            anonymous: try account.statusKiB("RssAnon"), peak: try account.statusKiB("VmHWM"),
            mapped: try account.mappedKiB()
        )
        let (response, peakAnonymous) = try account.peakAnonymousKiB {
            try client.send(account.query())
        }
        #expect(response.body.count > 100_000_000)
        #expect(response.body.starts(with: Array(#"{"ResultCode":0,"Record":["#.utf8)))
        #expect(response.body.suffix(2) == Array("]}".utf8))
        #expect(Self.records(in: response.body) == notes)
        let after = (peak: try account.statusKiB("VmHWM"), mapped: try account.mappedKiB())
        #expect(
            peakAnonymous - before.anonymous < Self.limitKiB,
            """
            RssAnon \(before.anonymous) KiB before, peak \(peakAnonymous) KiB; VmHWM \
            \(before.peak) -> \(after.peak) KiB, of which mapped database pages \
            \(before.mapped) -> \(after.mapped) KiB
            """)
    }

    @Test("A client that stops reading holds no answer in memory; others are answered")
    func slowReaderHoldsNoMemory() async throws {
        let account = try await LargeAccount(notes: 20_000, noteBytes: 1_000)
        let other = try RawHTTPClient(port: account.server.port)
        #expect(try other.send(account.query(small: true)).status == 200)
        let before = try account.statusKiB("RssAnon")
        let slow = try RawHTTPClient(port: account.server.port)
        let (whole, peakAnonymous) = try account.peakAnonymousKiB {
            // Reads one buffer of the answer (at most 64 KiB of its 20 MB), then nothing.
            #expect(slow.write(account.query()))
            #expect(!slow.isClosedByServer())
            for _ in 0..<20 {
                let small = try other.send(account.query(small: true))
                #expect(small.document == #"{"ResultCode":0,"Record":[]}"#)
            }
            return try other.send(account.query())
        }
        #expect(Self.records(in: whole.body) == 20_000)
        #expect(
            peakAnonymous - before < Self.limitKiB,
            "RssAnon \(before) KiB before, peak \(peakAnonymous) KiB with a stalled reader")
        withExtendedLifetime(slow) {}
    }
}
