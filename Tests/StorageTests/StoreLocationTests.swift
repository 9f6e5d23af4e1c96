import MyNotesDomain
import MyNotesTesting
import PostgreSQLStore
import SQLiteStore
import Storage
import Testing

/// `--database`'s forms, and what a location shows of itself.
@Suite struct StoreLocationTests {
    @Test func reportsADatabaseThatCannotBeOpened() {
        #expect {
            _ = try SQLiteNoteStore(path: "/nonexistent-folder/mynotes.sqlite")
        } throws: { error in
            if case StoreError.cannotOpen = error { return true }
            return false
        }
    }

    @Test func reportsADatabaseThatCannotBeReached() throws {
        let port = try PostgreSQLCluster.freePort()
        #expect {
            _ = try PostgreSQLNoteStore(conninfo: "postgres://nobody@127.0.0.1:\(port)/none")
        } throws: { error in
            guard case StoreError.cannotConnect(let location, let cause as PostgreSQLError) = error
            else {
                return false
            }
            return location.hasSuffix(":\(port)/none")
                && cause.sqlState == PostgreSQLError.cannotConnect
        }
    }

    @Test(arguments: ["sqlite:notes.db", "sqlite:///tmp/notes.db"])
    func parsesSQLiteLocations(text: String) throws {
        guard case .sqlite(let path) = try StoreLocation(parsing: text) else {
            Issue.record("not sqlite")
            return
        }
        #expect(path.hasSuffix("notes.db"))
    }

    @Test(arguments: ["mysql://x", "notes.db", "sqlite:", "", "color=blue", "postgres:/x"])
    func refusesOtherLocations(text: String) {
        #expect(throws: StoreError.self) { _ = try StoreLocation(parsing: text) }
    }

    @Test(arguments: [
        "postgres://mynotes@db.internal:5432/mynotes", "postgresql://localhost/notes",
        "postgresql://", "host=db port=5432 dbname=mynotes user=mynotes",
        "host='/var/run/postgresql' dbname=notes", "dbname=notes",
    ])
    func parsesPostgreSQLLocations(text: String) throws {
        #expect(try StoreLocation(parsing: text) == .postgreSQL(conninfo: text))
    }

    @Test(arguments: [
        ("postgres://ann:s3cret@db:5432/notes", "postgres://ann:***@db:5432/notes"),
        (
            "postgresql://ann@db/notes?password=s3cret&sslmode=require",
            "postgresql://ann@db/notes?password=***&sslmode=require"
        ),
        ("host=db password='s3 cret' dbname=notes", "host=db password=*** dbname=notes"),
        ("postgres://ann@db/notes", "postgres://ann@db/notes"),
        ("host=db dbname=notes", "host=db dbname=notes"),
    ])
    func hidesThePasswordOfALocation(text: String, shown: String) throws {
        let location = try StoreLocation(parsing: text)
        #expect(location.description == shown)
        #expect(!location.description.contains("s3"))
    }
}
