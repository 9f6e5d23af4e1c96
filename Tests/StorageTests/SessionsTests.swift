import Foundation
import MyNotesDomain
import Testing

/// The store's methods for sessions (their times and kinds, recording a use,
/// revoking all but one, sweeping expired ones, a password change that revokes), on
/// each backend.
@Suite struct SessionsTests {
    @Test(arguments: StoreBackend.all)
    func tokensKeepTheirKindAndTimes(backend: StoreBackend) async throws {
        try await TemporaryStore.withNew(backend) { store in
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

    @Test(arguments: StoreBackend.all)
    func aUseIsRecordedAndNeverMovesBack(backend: StoreBackend) async throws {
        try await TemporaryStore.withNew(backend) { store in
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

    @Test(arguments: StoreBackend.all)
    func everyTokenButOneIsRevokedInOneAccountOnly(backend: StoreBackend) async throws {
        try await TemporaryStore.withNew(backend) { store in
            let ann = try await store.createAccount(email: "ann@x", tokenHash: [1])
            let bob = try await store.createAccount(email: "bob@x", tokenHash: [9])
            for hash: UInt8 in 2...4 { try await store.addToken([hash], account: ann.id, at: 1) }
            #expect(try await store.removeTokens(account: ann.id, keeping: [3]) == 3)
            #expect(try await store.sessions(account: ann.id).map(\.tokenHash) == [[3]])
            #expect(try await store.removeTokens(account: ann.id, keeping: nil) == 1)
            #expect(try await store.sessions(account: bob.id).count == 1)
        }
    }

    @Test(arguments: StoreBackend.all)
    func expiredSessionsAreSweptAndAccessKeysKept(backend: StoreBackend) async throws {
        try await TemporaryStore.withNew(backend) { store in
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

    @Test(arguments: StoreBackend.all)
    func aPasswordChangeRevokesTheOtherTokensInTheSameWrite(backend: StoreBackend) async throws {
        try await TemporaryStore.withNew(backend) { store in
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
}
