import CSQLite
import Foundation
import Testing

@testable import Storage

/// Issue 10's store methods for sessions (their times and kinds, recording a use,
/// revoking all but one, sweeping expired ones, a password change that revokes) and the
/// migration that adds them, on a real database file.
@Suite struct SQLiteSessionsTests {
    let database: TemporaryDatabaseFile

    init() throws {
        database = try TemporaryDatabaseFile()
    }

    @Test func tokensKeepTheirKindAndTimes() async throws {
        defer { database.remove() }
        try await database.withStore { store in
            let ops = try await store.createAccount(email: "ops@x", tokenHash: [1])
            let ann = try await store.createAccount(
                email: "ann@x", tokenHash: [2], passwordHash: "p")
            try await store.addToken([3], account: ann.id, at: 1_000)
            #expect(try await store.sessions(account: ops.id).map(\.kind) == [.accessKey])
            let sessions = try await store.sessions(account: ann.id)
            #expect(sessions.map(\.tokenHash) == [[3], [2]], "oldest first")
            #expect(sessions.map(\.kind) == [.session, .session])
            #expect(sessions[0].createdAt == 1_000 && sessions[0].lastUsedAt == 1_000)
            #expect(try await store.account(tokenHash: [3])?.session == sessions[0])
            #expect(try await store.replaceTokens(email: "ann@x", tokenHash: [4]))
            #expect(try await store.sessions(account: ann.id).map(\.kind) == [.accessKey])
            let check = try await store.account(email: "ann@x", presenting: [4])
            #expect(check?.session?.tokenHash == [4])
            #expect(try await store.account(email: "ann@x", presenting: [1])?.session == nil)
        }
    }

    @Test func aUseIsRecordedAndNeverMovesBack() async throws {
        defer { database.remove() }
        try await database.withStore { store in
            let ann = try await store.createAccount(
                email: "ann@x", tokenHash: nil, passwordHash: "p")
            try await store.addToken([1], account: ann.id, at: 1_000)
            try await store.touchToken([1], usedAt: 5_000)
            try await store.touchToken([1], usedAt: 3_000)
            try await store.touchToken([9], usedAt: 9_000)
            let session = try #require(try await store.sessions(account: ann.id).first)
            #expect(session.lastUsedAt == 5_000 && session.createdAt == 1_000)
        }
    }

    @Test func everyTokenButOneIsRevokedInOneAccountOnly() async throws {
        defer { database.remove() }
        try await database.withStore { store in
            let ann = try await store.createAccount(email: "ann@x", tokenHash: [1])
            let bob = try await store.createAccount(email: "bob@x", tokenHash: [9])
            for hash: UInt8 in 2...4 { try await store.addToken([hash], account: ann.id, at: 1) }
            #expect(try await store.removeTokens(account: ann.id, keeping: [3]) == 3)
            #expect(try await store.sessions(account: ann.id).map(\.tokenHash) == [[3]])
            #expect(try await store.removeTokens(account: ann.id, keeping: nil) == 1)
            #expect(try await store.sessions(account: bob.id).count == 1)
        }
    }

    @Test func expiredSessionsAreSweptAndAccessKeysKept() async throws {
        defer { database.remove() }
        try await database.withStore { store in
            let ann = try await store.createAccount(email: "ann@x", tokenHash: [1])
            try await store.addToken([2], account: ann.id, at: 100)  // idle since 100
            try await store.addToken([3], account: ann.id, at: 100)
            try await store.touchToken([3], usedAt: 900)  // used lately, but made at 100
            try await store.addToken([4], account: ann.id, at: 800)  // fresh
            #expect(try await store.removeSessions(lastUsedBefore: nil, createdBefore: nil) == 0)
            #expect(try await store.removeSessions(lastUsedBefore: 500, createdBefore: nil) == 1)
            #expect(try await store.removeSessions(lastUsedBefore: 500, createdBefore: 200) == 1)
            let left = try await store.sessions(account: ann.id)
            #expect(Set(left.map(\.tokenHash)) == [[1], [4]], "the access key (made now) and [4]")
            #expect(try await store.removeSessions(lastUsedBefore: .max, createdBefore: .max) == 1)
            #expect(try await store.sessions(account: ann.id).map(\.kind) == [.accessKey])
        }
    }

    @Test func aPasswordChangeRevokesTheOtherTokensInTheSameWrite() async throws {
        defer { database.remove() }
        try await database.withStore { store in
            let ann = try await store.createAccount(
                email: "ann@x", tokenHash: [1], passwordHash: "p1")
            try await store.addToken([2], account: ann.id, at: 1)
            #expect(try await store.setPasswordHash("p2", account: ann.id, keepingToken: [2]))
            #expect(try await store.account(email: "ann@x")?.passwordHash == "p2")
            #expect(try await store.sessions(account: ann.id).map(\.tokenHash) == [[2]])
            #expect(try await store.setPasswordHash("p3", account: ann.id, keepingToken: nil))
            #expect(try await store.sessions(account: ann.id).isEmpty)
            #expect(try await !store.setPasswordHash("p4", account: ann.id + 7, keepingToken: nil))
        }
    }

    /// A database of the two earlier steps opens: a token's last use starts as its
    /// creation; tokens of accounts without a password become access keys.
    @Test func theMigrationGivesEveryTokenATimeAndAKind() async throws {
        defer { database.remove() }
        var handle: OpaquePointer?
        #expect(sqlite3_open(database.path, &handle) == SQLITE_OK)
        let before = """
            \(SQLiteMigrations.all[0].sql)
            \(SQLiteMigrations.all[1].sql)
            CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)
                WITHOUT ROWID;
            INSERT INTO schema_migrations VALUES ('accounts-and-notes', 1),
                ('tokens-passwords-versions', 1);
            INSERT INTO accounts (id, email, created_at, password_hash)
                VALUES (1, 'ops@x', 5, NULL), (2, 'ann@x', 6, 'p');
            INSERT INTO tokens VALUES (x'01', 1, 5), (x'02', 2, 6), (x'03', 2, 7);
            """
        #expect(sqlite3_exec(handle, before, nil, nil, nil) == SQLITE_OK)
        #expect(sqlite3_close(handle) == SQLITE_OK)
        try await database.withStore { store in
            let ops = try await store.sessions(account: 1)
            let ann = try await store.sessions(account: 2)
            #expect(ops == [Session(tokenHash: [1], kind: .accessKey, createdAt: 5, lastUsedAt: 5)])
            #expect(
                ann == [
                    Session(tokenHash: [2], kind: .session, createdAt: 6, lastUsedAt: 6),
                    Session(tokenHash: [3], kind: .session, createdAt: 7, lastUsedAt: 7),
                ])
        }
    }
}
