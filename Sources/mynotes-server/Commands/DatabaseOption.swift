import CommandLineSupport
import Foundation
import MyNotesDomain
import PostgreSQLStore
import SQLiteStore
import Storage
import StorageSupport

/// `--database sqlite:PATH` (or a plain path, taken as SQLite), or a PostgreSQL location
/// (`postgres://USER@HOST:PORT/DB`, `postgresql://…`, libpq's `key=value` pairs), shared by
/// every command that opens the store.
enum DatabaseOption {
    static let name = "--database"
    static let environmentVariable = "MYNOTES_DATABASE"
    static let defaultValue = "sqlite:./mynotes.sqlite"
    static let spec = OptionSpec.value(
        name, "sqlite:PATH",
        "The database, sqlite:PATH or a plain PATH, or postgres://USER@HOST:PORT/DB "
            + "(env MYNOTES_DATABASE; default \(defaultValue)).",
        short: "-d")

    static func location(_ arguments: ParsedArguments) throws(UsageError) -> StoreLocation {
        let text =
            arguments.value(name) ?? arguments.environment[environmentVariable] ?? defaultValue
        // libpq's `key=value` pairs have no scheme either, and are not a path.
        if !text.isEmpty, !hasScheme(text), (try? StoreLocation(parsing: text)) == nil {
            return .sqlite(path: text)
        }
        do {
            return try StoreLocation(parsing: text)
        } catch {
            throw UsageError(
                "option '\(name)' must be sqlite:PATH, a file's path or postgres://…, not '\(text)'"
            )
        }
    }

    /// Whether `text` starts like a URL (`sqlite:`, `postgres://`) rather than a path.
    private static func hasScheme(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":") else { return false }
        let scheme = text[..<colon]
        return !scheme.isEmpty && scheme.first!.isLetter
            && scheme.allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) }
    }

    /// The file of a `sqlite:` location, for the commands that work on the file itself.
    static func sqlitePath(_ arguments: ParsedArguments, for command: String) throws(UsageError)
        -> String
    {
        let location = try location(arguments)
        if case .sqlite(let path) = location { return path }
        throw UsageError("'\(command)' works on sqlite: databases; see docs/OPERATIONS.md")
    }

    static func open(
        _ location: StoreLocation, limits: StoreLimits = StoreLimits()
    ) throws(CommandFailure) -> any NoteStore {
        do {
            return try location.open(
                limits: limits, indexing: searchIndexProgress(), migrating: printMigration)
        } catch {
            throw CommandFailure(error.description)
        }
    }

    /// A PostgreSQL migration over existing notes (building the search indexes) takes a
    /// minute or more per million notes; its progress goes to stderr, before the log starts.
    @Sendable private static func printMigration(_ progress: PostgreSQLMigrationProgress) {
        FileHandle.standardError.write(Data("mynotes-server: database \(progress)\n".utf8))
    }

    /// Building the search index over a large database takes minutes (a million short
    /// notes and a 139 MB account: benchmarks/README.md, *search.sh*): its progress goes to
    /// stderr, every 5%.
    private static func searchIndexProgress() -> (SearchIndexProgress) -> Void {
        var shown = -1
        return { progress in
            let percent = progress.total == 0 ? 100 : progress.indexed * 100 / progress.total
            guard percent / 5 != shown / 5 || progress.indexed == progress.total else { return }
            shown = percent
            FileHandle.standardError.write(
                Data(
                    "mynotes-server: building the search index: \(progress.indexed) of \(progress.total) notes (\(percent)%)\n"
                        .utf8))
        }
    }

    /// The database's files that do not exist yet, so that a start that fails after
    /// opening it (the port taken) can remove them rather than leave an empty database.
    static func missingFiles(_ location: StoreLocation) -> [String] {
        switch location {
        case .sqlite(let path):
            return [path, path + "-wal", path + "-shm", path + "-journal"].filter {
                !FileManager.default.fileExists(atPath: $0)
            }
        case .postgreSQL: return []
        }
    }

    /// Removes the files of `missingFiles(_:)` the failed start created.
    static func remove(_ files: [String]) {
        for file in files { try? FileManager.default.removeItem(atPath: file) }
    }
}
