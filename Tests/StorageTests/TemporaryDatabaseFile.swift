import Foundation
import MyNotesDomain

@testable import SQLiteStore

/// A database path in a new temporary folder, for tests that open real files.
struct TemporaryDatabaseFile {
    let directory: URL
    let path: String

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("mynotes-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent("notes.sqlite").path
    }

    /// Opens the store on the file, runs `body`, and closes the store (the file stays).
    func withStore<T>(_ body: (SQLiteNoteStore) async throws -> T) async throws -> T {
        let store = try SQLiteNoteStore(path: path)
        defer { store.close() }
        return try await body(store)
    }

    /// ``withStore(_:)`` with a new account, `a@x`, made in the store first.
    func withAccount<T>(_ body: (SQLiteNoteStore, Account) async throws -> T) async throws -> T {
        try await withStore { store in
            let account = try await store.createAccount(
                email: "a@x", tokenHash: nil, passwordHash: nil)
            return try await body(store, account)
        }
    }

    /// Runs SQL on the file outside any store, as the `sqlite3` shell or an older release
    /// would (a store closed a moment ago may still be checkpointing: the connection waits
    /// up to 5 s for its lock).
    func execute(_ sql: String) throws {
        try SQLiteConnection(path: path, mode: .readWrite).execute(sql)
    }

    /// The first column of every row `sql` reads, as text.
    func texts(_ sql: String) throws -> [String] {
        let connection = try SQLiteConnection(path: path, mode: .readWrite)
        let statement = try connection.statement(sql)
        defer { connection.finishStatements() }
        var texts: [String] = []
        while try statement.step() { texts.append(statement.text(0)) }
        return texts
    }

    /// The first column of the first row `sql` reads, as an integer.
    func integer(_ sql: String) throws -> Int64 {
        let connection = try SQLiteConnection(path: path, mode: .readWrite)
        let statement = try connection.statement(sql)
        defer { connection.finishStatements() }
        _ = try statement.step()
        return statement.int64(0)
    }

    /// Deletes the folder and everything SQLite wrote into it.
    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
