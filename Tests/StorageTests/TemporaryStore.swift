import Foundation
import MyNotesDomain
import MyNotesTesting
import Storage
import StorageSupport

/// A new, empty database of one backend for one test: a file in a temporary folder, or a
/// schema of its own on the test cluster. Each ``withStore(_:)`` opens the store anew, so
/// a test can check what survives a reopening.
struct TemporaryStore {
    let backend: StoreBackend
    let location: StoreLocation
    private let file: TemporaryDatabaseFile?

    init(_ backend: StoreBackend) throws {
        self.backend = backend
        switch backend {
        case .sqlite:
            let file = try TemporaryDatabaseFile()
            self.file = file
            location = .sqlite(path: file.path)
        case .postgreSQL:
            guard let cluster = try PostgreSQLCluster.shared() else {
                throw PostgreSQLClusterError(PostgreSQLCluster.unavailableReason ?? "unavailable")
            }
            file = nil
            location = .postgreSQL(conninfo: try cluster.createSchema())
        }
    }

    func open(limits: StoreLimits = StoreLimits()) throws -> any NoteStore {
        try location.open(limits: limits)
    }

    /// Opens a new database of `backend`, runs `body` on it, and deletes it.
    static func withNew<T>(
        _ backend: StoreBackend, _ body: (any NoteStore) async throws -> T
    ) async throws -> T {
        let database = try TemporaryStore(backend)
        defer { database.remove() }
        return try await database.withStore(body)
    }

    /// Opens the store, runs `body`, and closes the store (the data stays).
    func withStore<T>(_ body: (any NoteStore) async throws -> T) async throws -> T {
        let store = try open()
        defer { store.close() }
        return try await body(store)
    }

    /// Deletes the SQLite folder; a PostgreSQL database goes with its cluster.
    func remove() {
        file?.remove()
    }
}
