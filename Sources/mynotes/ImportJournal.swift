import CommandLineSupport
import Foundation

/// What an import has done so far, on disk, so that an interrupted import resumes
/// without adding any note twice.
///
/// The file lives in `$XDG_STATE_HOME/mynotes/imports/` (default `~/.local/state/…`),
/// named after the server, the account and the file's bytes. Lines:
/// `before ID…` (the account's notes when the import began), then `done INDEX ID` per
/// note added. A note added in the instant before an interruption has no `done` line;
/// ``reconcile(entries:serverNotes:)`` finds it on the server among the notes that
/// are neither `before` nor `done`.
final class ImportJournal: @unchecked Sendable {
    // `handle` and `done` are guarded by `lock`: concurrent uploads record here.
    private let lock = NSLock()
    private let handle: FileHandle
    let url: URL
    private(set) var before: Set<Int>?
    private(set) var done: [Int: Int] = [:]

    /// Opens (or creates) the journal for importing `data` into an account.
    init(server: String, email: String, data: Data, environment: [String: String])
        throws(CommandFailure)
    {
        var key = FNV1a()
        key.add(Data(server.utf8))
        key.add(Data([0]))
        key.add(Data(email.lowercased().utf8))
        key.add(Data([0]))
        key.add(data)
        let base: URL
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg)
        } else {
            let home = environment["HOME"] ?? NSHomeDirectory()
            base = URL(fileURLWithPath: home).appendingPathComponent(".local/state")
        }
        let directory = base.appendingPathComponent("mynotes/imports")
        url = directory.appendingPathComponent(key.hex + ".journal")
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            let existing = FileManager.default.contents(atPath: url.path)
            if existing == nil {
                _ = FileManager.default.createFile(
                    atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600])
            }
            handle = try FileHandle(forWritingTo: url)
            handle.seekToEndOfFile()
            if let existing { parse(String(decoding: existing, as: UTF8.self)) }
        } catch {
            throw CommandFailure(
                "cannot open the import journal \(url.path): \(error.localizedDescription)")
        }
    }

    /// Whether an earlier run of the same import was interrupted.
    var isResuming: Bool { before != nil }

    private func parse(_ text: String) {
        // Called from `init` only, before the journal is shared.
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            switch fields.first {
            case "before": before = Set(fields.dropFirst().compactMap { Int($0) })
            case "done":
                // A torn last line (killed mid-write) has fewer fields and is ignored.
                if fields.count == 3, let index = Int(fields[1]), let id = Int(fields[2]) {
                    done[index] = id
                }
            default: break
            }
        }
    }

    func begin(existingIDs: [Int]) {
        before = Set(existingIDs)
        append("before " + existingIDs.map(String.init).joined(separator: " ") + "\n")
    }

    func record(index: Int, id: Int) {
        lock.withLock { done[index] = id }
        append("done \(index) \(id)\n")
    }

    func isDone(_ index: Int) -> Bool {
        lock.withLock { done[index] != nil }
    }

    /// Marks as done the entries whose note reached the server without a `done` line:
    /// notes on the server, added since the import began, that no `done` line claims,
    /// matched by date and content.
    func reconcile(
        entries: [NotesFile.Entry], serverNotes: [(id: Int, date: String, content: String)]
    ) -> Int {
        let claimed = Set(lock.withLock { done.values })
        var unclaimed: [String: [Int]] = [:]
        for note in serverNotes
        where !(before ?? []).contains(note.id) && !claimed.contains(note.id) {
            unclaimed[note.date + "\u{0}" + note.content, default: []].append(note.id)
        }
        var found = 0
        for (index, entry) in entries.enumerated() where !isDone(index) {
            let key = entry.date.description + "\u{0}" + entry.content
            if let id = unclaimed[key]?.popLast() {
                record(index: index, id: id)
                found += 1
            }
        }
        return found
    }

    /// Removes the journal once everything is imported.
    func finish() {
        lock.withLock { try? handle.close() }
        try? FileManager.default.removeItem(at: url)
    }

    private func append(_ line: String) {
        lock.withLock { handle.write(Data(line.utf8)) }
    }
}

/// FNV-1a, 64 bits: a stable name for a journal, not a security measure.
private struct FNV1a {
    private var hash: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ data: Data) {
        for byte in data {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
    }

    var hex: String {
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
