import MyNotesTesting
import Testing

/// The stores the contract tests run against: SQLite always, PostgreSQL when its binaries
/// are installed (a private cluster, see ``PostgreSQLCluster``). `PostgreSQLStoreTests`
/// says why when they are not.
enum StoreBackend: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case sqlite
    case postgreSQL

    static var all: [StoreBackend] {
        PostgreSQLCluster.isAvailable ? allCases : [.sqlite]
    }

    var testDescription: String { rawValue }
}
