import MyNotesDomain
import StorageSupport

/// Copies every account, token (sessions included) and note from one store to another,
/// IDs, times and versions as they are: `mynotes-server migrate`, the path from one
/// machine (SQLite) to many (PostgreSQL) and back. The target must be empty unless
/// ``Overwrite/replace`` says to delete what it holds. At the end, both stores are read
/// again and their counts and a checksum of every row compared.
///
/// ```swift
/// let copy = StoreCopy(from: .sqlite(path: "mynotes.sqlite"), to: .postgreSQL(conninfo: uri))
/// let summary = try await copy.run { progress in print(progress) }
/// ```
public struct StoreCopy: Sendable {
    /// What to do with a target that already holds data.
    public enum Overwrite: Sendable {
        /// Refuse to copy: ``StoreCopyError/targetNotEmpty(_:)``.
        case refuse
        /// Delete everything in the target first.
        case replace
    }

    /// What was copied, and the checksum both stores agree on.
    public struct Summary: Sendable, Hashable {
        public var accounts: Int
        public var tokens: Int
        public var notes: Int
        /// FNV-1a (64 bits) over every row in ID order, in hexadecimal.
        public var checksum: String
    }

    public let source: StoreLocation
    public let target: StoreLocation
    public var overwrite: Overwrite
    /// Notes per read and per insert transaction.
    public var batchSize: Int

    public init(
        from source: StoreLocation, to target: StoreLocation, overwrite: Overwrite = .refuse,
        batchSize: Int = 1_000
    ) {
        self.source = source
        self.target = target
        self.overwrite = overwrite
        self.batchSize = max(1, batchSize)
    }

    public func run(
        progress: @Sendable (String) -> Void = { _ in }
    ) async throws(StoreCopyError) -> Summary {
        let from = try Self.open(source)
        defer { from.close() }
        let to = try Self.open(target)
        defer { to.close() }
        do {
            let counts = try await from.rowCounts()
            let existing = try await to.rowCounts()
            if !existing.isEmpty {
                guard overwrite == .replace else {
                    throw StoreCopyError.targetNotEmpty("\(target): \(existing)")
                }
                progress("deleting \(existing) from \(target)")
                try await to.removeAll()
            }
            progress("copying \(counts) from \(source) to \(target)")
            try await to.insert(
                accounts: try await from.accountRows(), tokens: try await from.tokenRows())
            progress(
                "accounts \(counts.accounts)/\(counts.accounts), tokens \(counts.tokens)/\(counts.tokens)"
            )
            var copied = 0
            var last: Int64 = 0
            while true {
                let batch = try await from.noteRows(after: last, limit: batchSize)
                guard let end = batch.last else { break }
                try await to.insert(notes: batch)
                copied += batch.count
                last = end.note.id
                progress("notes \(copied)/\(counts.notes)")
            }
            try await to.continueIDs()
            progress("verifying")
            let (sourceCounts, sourceSum) = try await checksum(of: from)
            let (targetCounts, targetSum) = try await checksum(of: to)
            guard sourceCounts == targetCounts, sourceSum == targetSum else {
                throw StoreCopyError.mismatch(
                    "source \(sourceCounts), checksum \(sourceSum); "
                        + "target \(targetCounts), checksum \(targetSum)")
            }
            return Summary(
                accounts: targetCounts.accounts, tokens: targetCounts.tokens,
                notes: targetCounts.notes, checksum: targetSum)
        } catch let error as StoreCopyError {
            throw error
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            // Every call above throws one of the two.
            throw .mismatch("\(error)")
        }
    }

    /// Counts and hashes every row, reading the store anew.
    private func checksum(of store: any TransferableStore) async throws(StoreError)
        -> (StoreRows.Counts, String)
    {
        var hash = Checksum()
        let accounts = try await store.accountRows()
        for account in accounts {
            hash.add(account.id, account.email, account.passwordHash ?? "\u{0}", account.createdAt)
        }
        let tokens = try await store.tokenRows()
        for token in tokens {
            hash.add(token.accountID, token.createdAt, token.lastUsedAt, token.kind)
            hash.add(bytes: token.hash)
        }
        var notes = 0
        var last: Int64 = 0
        while true {
            let batch = try await store.noteRows(after: last, limit: batchSize)
            guard let end = batch.last else { break }
            for row in batch {
                let note = row.note
                hash.add(
                    row.accountID, note.id, note.date.description, note.content, note.createdAt)
                hash.add(note.updatedAt, note.version)
            }
            notes += batch.count
            last = end.note.id
        }
        let counts = StoreRows.Counts(accounts: accounts.count, tokens: tokens.count, notes: notes)
        return (counts, hash.hex)
    }

    private static func open(_ location: StoreLocation) throws(StoreCopyError)
        -> any TransferableStore
    {
        let store: any NoteStore
        do throws(StoreError) {
            store = try location.open()
        } catch {
            throw .store(error)
        }
        guard let transferable = store as? any TransferableStore else {
            store.close()
            throw .store(.unsupportedLocation(location.description))
        }
        return transferable
    }

    /// FNV-1a, 64 bits: cheap, in order, and the same on every machine.
    private struct Checksum {
        private var state: UInt64 = 0xcbf2_9ce4_8422_2325

        mutating func add(bytes: some Sequence<UInt8>) {
            for byte in bytes {
                state = (state ^ UInt64(byte)) &* 0x100_0000_01b3
            }
            // A separator, so that "ab" + "c" and "a" + "bc" differ.
            state = (state ^ 0xFF) &* 0x100_0000_01b3
        }

        mutating func add(_ values: Any...) {
            for value in values { add(bytes: "\(value)".utf8) }
        }

        var hex: String {
            let digits = String(state, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
    }
}
