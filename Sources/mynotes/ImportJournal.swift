import CommandLineSupport
import Foundation
import Secrets

/// What the imports of one file into one account have done, on disk: an interrupted
/// import resumes without adding any note twice, and a finished one is not repeated.
///
/// The file lives in `$XDG_STATE_HOME/mynotes/imports/` (default `~/.local/state/…`),
/// named `ACCOUNT-CONTENT.journal`: a hash of the server and the account, and the
/// SHA-256 of the file's bytes, so the same content under any name is the same import,
/// and a changed file is another. Lines: `before ID…` (the account's notes when the
/// first run began), `run` when a run begins, `done INDEX ID` per note added, `ended`
/// when a run ends without being interrupted, `finished` once every note is in.
///
/// A note added in the instant before an interruption has no `done` line;
/// ``reconcile(entries:serverNotes:)`` finds it on the server among the notes that are
/// neither `before` nor `done`. Notes imported from an earlier version of the file (the
/// account's other journals) are found on the server the same way, by their IDs.
final class ImportJournal: @unchecked Sendable {
    /// How the runs before this one went.
    enum History: Equatable {
        /// No run yet.
        case new
        /// The last run was cut short (Ctrl-C, a lost connection, a crash).
        case interrupted
        /// The last run ended, with notes left over (refused, or a failure that stopped it).
        case ended
        /// Every note is in.
        case finished
    }

    // `handle` and `done` are guarded by `lock`: concurrent uploads record here.
    private let lock = NSLock()
    private let handle: FileHandle
    let url: URL
    private(set) var history = History.new
    private var before: Set<Int> = []
    private var done: [Int: Int] = [:]
    /// Notes the account's other journals added: earlier versions of the file.
    private var earlier: Set<Int> = []

    /// Opens (or creates) the journal for importing `data` into an account; `again`
    /// forgets what earlier runs of the same content did.
    init(server: String, email: String, data: Data, again: Bool, environment: [String: String])
        throws(CommandFailure)
    {
        let account = String(SHA256.hex(server + "\u{0}" + email.lowercased()).prefix(16))
        let directory = StateDirectory.url("imports", environment: environment)
        let digest = data.withUnsafeBytes { SHA256.hex($0) }
        url = directory.appendingPathComponent("\(account)-\(digest).journal")
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            if again { try? FileManager.default.removeItem(at: url) }
            let existing = FileManager.default.contents(atPath: url.path)
            if existing == nil {
                _ = FileManager.default.createFile(
                    atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600])
            }
            handle = try FileHandle(forWritingTo: url)
            handle.seekToEndOfFile()
            if let existing { parse(String(decoding: existing, as: UTF8.self)) }
            for other in try FileManager.default.contentsOfDirectory(atPath: directory.path)
            where other.hasPrefix(account + "-") && other != url.lastPathComponent {
                let text = FileManager.default.contents(
                    atPath: directory.appendingPathComponent(other).path)
                earlier.formUnion(
                    Self.doneLines(String(decoding: text ?? Data(), as: UTF8.self)).values)
            }
        } catch {
            throw CommandFailure(
                "cannot open the import journal \(url.path): \(error.localizedDescription)")
        }
    }

    private func parse(_ text: String) {
        // Called from `init` only, before the journal is shared.
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            switch fields.first {
            case "before":
                before = Set(fields.dropFirst().compactMap { Int($0) })
                history = .interrupted
            case "run": history = .interrupted
            case "ended": history = .ended
            case "finished": history = .finished
            default: break
            }
        }
        done = Self.doneLines(text)
    }

    /// `done INDEX ID` lines; a torn last line (killed mid-write) has fewer fields and
    /// is ignored.
    private static func doneLines(_ text: String) -> [Int: Int] {
        var done: [Int: Int] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 3, fields[0] == "done", let index = Int(fields[1]),
                let id = Int(fields[2])
            {
                done[index] = id
            }
        }
        return done
    }

    /// Starts a run; the first records the account's notes as they were.
    func begin(existingIDs: [Int]) {
        if history == .new {
            before = Set(existingIDs)
            append("before " + existingIDs.map(String.init).joined(separator: " ") + "\n")
        }
        append("run\n")
    }

    func record(index: Int, id: Int) {
        lock.withLock { done[index] = id }
        append("done \(index) \(id)\n")
    }

    func isDone(_ index: Int) -> Bool {
        lock.withLock { done[index] != nil }
    }

    /// Marks as done the entries already on the server: notes added by an interrupted
    /// run without their `done` line (neither `before` nor claimed), and notes added
    /// from an earlier version of the file; matched by date and content. Returns how
    /// many entries are done in all.
    func reconcile(
        entries: [NotesFile.Entry], serverNotes: [(id: Int, date: String, content: String)]
    ) -> Int {
        let claimed = Set(lock.withLock { done.values })
        var unclaimed: [String: [Int]] = [:]
        for note in serverNotes where !claimed.contains(note.id) {
            let addedByAnInterruptedRun = history == .interrupted && !before.contains(note.id)
            guard addedByAnInterruptedRun || earlier.contains(note.id) else { continue }
            unclaimed[note.date + "\u{0}" + note.content, default: []].append(note.id)
        }
        for (index, entry) in entries.enumerated() where !isDone(index) {
            let key = entry.date.description + "\u{0}" + entry.content
            if let id = unclaimed[key]?.popLast() { record(index: index, id: id) }
        }
        return lock.withLock { done.count }
    }

    /// Ends a run: `finished` when every note is in, so that running it again adds nothing.
    func end(finished: Bool) {
        append(finished ? "finished\n" : "ended\n")
        lock.withLock { try? handle.close() }
    }

    private func append(_ line: String) {
        lock.withLock { handle.write(Data(line.utf8)) }
    }
}
