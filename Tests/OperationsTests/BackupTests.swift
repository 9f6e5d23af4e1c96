import Foundation
import Locking
import MyNotesDomain
import MyNotesTesting
import SQLiteStore
import Synchronization
import Testing

/// `mynotes-server backup` while adds stream in, `restore`, and their refusals.
@Suite struct BackupTests {
    /// Adds notes one after another until stopped, recording each acknowledged note and
    /// how long its add took.
    final class AddStream: Sendable {
        struct Acknowledged: Sendable {
            let id: Int64
            let content: String
            let at: ContinuousClock.Instant
            let latency: Duration
        }

        let acknowledged = Lock<[Acknowledged]>([])
        let stopped = Atomic<Bool>(false)

        func run(on store: any NoteStore, account: Int64) async throws {
            var index = 0
            while !stopped.load(ordering: .relaxed) {
                let content = "note \(index) " + String(repeating: "·", count: index % 50)
                let started = ContinuousClock.now
                let note = try await store.addNote(
                    NoteDraft(date: "2026-12-01", content: content), account: account,
                    quota: .unlimited)
                let now = ContinuousClock.now
                acknowledged.withLock {
                    $0.append(
                        Acknowledged(id: note.id, content: content, at: now, latency: now - started)
                    )
                }
                index += 1
            }
        }

        var count: Int { acknowledged.withLock { $0.count } }
    }

    @Test func aBackupDuringAStreamOfAddsHoldsEveryAddAcknowledgedBeforeIt() async throws {
        let fixture = try OperationsFixture()
        defer { fixture.remove() }
        let store = try SQLiteNoteStore(path: fixture.databasePath)
        defer { store.close() }
        let account = try await store.createAccount(
            email: "ann@example.com", tokenHash: nil, passwordHash: nil)
        // About 4 MB of notes first, so that the copy takes several steps.
        let filler = String(repeating: "x", count: 1_000)
        for _ in 0..<8 {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<500 {
                    group.addTask {
                        _ = try await store.addNote(
                            NoteDraft(date: "2026-11-30", content: filler), account: account.id,
                            quota: .unlimited)
                    }
                }
                try await group.waitForAll()
            }
        }
        let stream = AddStream()
        let adding = Task { try await stream.run(on: store, account: account.id) }
        // Polled without holding a thread of the concurrency pool, which the stream's adds
        // need: a blocking poll there, beside the other suites' on two cores, starved them
        // (fewer than 200 adds in 60 s, in a CI run of 2026-12-04).
        try await Poll.until(
            "200 adds before the backup", timeout: .seconds(60), every: Poll.interval
        ) {
            stream.count >= 200
        }

        let copy = fixture.path("copy.sqlite")
        let backupStarted = ContinuousClock.now
        let before = stream.acknowledged.withLock { $0 }
        let result = try await CommandRunner.run(
            "mynotes-server", ["backup", "--database", fixture.location, "--to", copy])
        let backupEnded = ContinuousClock.now
        let countAfterBackup = stream.count
        try await Poll.until("adds after the backup", timeout: .seconds(60), every: Poll.interval) {
            stream.count >= countAfterBackup + 20
        }
        stream.stopped.store(true, ordering: .relaxed)
        try await adding.value
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("Backed up"))

        let all = stream.acknowledged.withLock { $0 }
        let during = all.filter { $0.at > backupStarted && $0.at <= backupEnded }
        // The writers went on while the copy was made (measured, reported by the suite).
        #expect(!during.isEmpty, "no add completed during the backup")
        let slowest = during.map(\.latency).max() ?? .zero
        let medianDuring = during.map(\.latency).sorted().dropFirst(during.count / 2).first ?? .zero
        let typical = before.suffix(200).map(\.latency).sorted()[100]
        print(
            "backup: \(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines));"
                + " adds during it: \(during.count), median \(medianDuring), slowest \(slowest);"
                + " median add before it \(typical)")
        #expect(slowest < .milliseconds(500))

        let doctor = try await CommandRunner.run(
            "mynotes-server", ["doctor", "--database", "sqlite:" + copy])
        #expect(doctor.status == 0, "\(doctor.standardOutput)\(doctor.standardError)")
        #expect(doctor.standardOutput.contains("ok: integrity_check passed"))

        let restored = try SQLiteNoteStore(path: copy)
        defer { restored.close() }
        let notes = try await restored.notes(account: account.id, page: NotePage(limit: 100_000))
            .filter { $0.content != filler }
        let contents = Dictionary(uniqueKeysWithValues: notes.map { ($0.id, $0.content) })
        // Every add acknowledged before the backup began is there, whole.
        for note in before { #expect(contents[note.id] == note.content) }
        // Nothing else but acknowledged adds, each whole: none half-written.
        let written = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0.content) })
        for (id, content) in contents { #expect(written[id] == content) }
        #expect(notes.count >= before.count && notes.count <= all.count)
    }

    @Test func restoreRefusesADatabaseInUseAndRestoresOnceItIsNot() async throws {
        let fixture = try OperationsFixture()
        defer { fixture.remove() }
        let store = try SQLiteNoteStore(path: fixture.databasePath)
        let account = try await store.createAccount(
            email: "ann@example.com", tokenHash: nil, passwordHash: nil)
        _ = try await store.addNote(
            NoteDraft(date: "2026-12-01", content: "kept"), account: account.id, quota: .unlimited)
        let copy = fixture.path("copy.sqlite")
        let backup = try await CommandRunner.run(
            "mynotes-server", ["backup", "--database", fixture.location, "--to", copy])
        #expect(backup.status == 0, "\(backup.standardError)")
        let mode = try FileManager.default.attributesOfItem(atPath: copy)[.posixPermissions]
        #expect(mode as? Int == 0o600)
        let again = try await CommandRunner.run(
            "mynotes-server", ["backup", "--database", fixture.location, "--to", copy])
        #expect(again.status == 1)
        #expect(again.standardError.contains("exists already"))

        _ = try await store.addNote(
            NoteDraft(date: "2026-12-01", content: "after the backup"), account: account.id,
            quota: .unlimited)
        let refused = try await CommandRunner.run(
            "mynotes-server", ["restore", "--from", copy, "--database", fixture.location])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("in use"), "\(refused.standardError)")
        #expect(try await store.notes(account: account.id, page: NotePage(limit: 10)).count == 2)
        store.close()

        let restore = try await CommandRunner.run(
            "mynotes-server", ["restore", "--from", copy, "--database", fixture.location])
        #expect(restore.status == 0, "\(restore.standardError)")
        let reopened = try SQLiteNoteStore(path: fixture.databasePath)
        defer { reopened.close() }
        let notes = try await reopened.notes(account: account.id, page: NotePage(limit: 10))
        #expect(notes.map(\.content) == ["kept"])

        // Restoring to a new file makes it, readable by its owner only.
        let fresh = fixture.path("fresh.sqlite")
        let made = try await CommandRunner.run(
            "mynotes-server", ["restore", "--from", copy, "--database", "sqlite:" + fresh])
        #expect(made.status == 0, "\(made.standardError)")
        let freshMode = try FileManager.default.attributesOfItem(atPath: fresh)[.posixPermissions]
        #expect(freshMode as? Int == 0o600)
        let freshStore = try SQLiteNoteStore(path: fresh)
        defer { freshStore.close() }
        let freshNotes = try await freshStore.notes(account: account.id, page: NotePage(limit: 10))
        #expect(freshNotes.map(\.content) == ["kept"])
    }

    @Test func restoreRefusesABackupThatIsNotSound() throws {
        let fixture = try OperationsFixture()
        defer { fixture.remove() }
        let bogus = fixture.path("bogus.sqlite")
        try Data("not a database at all".utf8).write(to: URL(fileURLWithPath: bogus))
        let result = try CommandRunner.run(
            "mynotes-server", ["restore", "--from", bogus, "--database", fixture.location])
        #expect(result.status == 1)
        #expect(!FileManager.default.fileExists(atPath: fixture.databasePath))
        let missing = try CommandRunner.run(
            "mynotes-server",
            ["restore", "--from", fixture.path("none"), "--database", fixture.location])
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("does not exist"))
    }
}
