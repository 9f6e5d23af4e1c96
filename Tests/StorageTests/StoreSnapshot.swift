import Foundation
import MyNotesDomain

/// Everything a store answers through ``NoteStore`` about the accounts it holds, as JSON:
/// the fixtures of databases made by earlier code keep the snapshot taken when they were
/// made, and a test takes it again after the current code has opened (and upgraded) them.
/// Equal snapshots mean nothing was lost: accounts, tokens and their sign-ins, every note
/// with its dates and version, each account's change feed with its tombstones, and the
/// answers of a set of searches.
struct StoreSnapshot: Codable, Equatable {
    struct Token: Codable, Equatable {
        var hash: String
        var kind: String
        var createdAt: Int64
        var lastUsedAt: Int64
        /// The account a sign-in with this token's hash finds.
        var signsInto: String?
    }

    struct StoredNote: Codable, Equatable {
        var id: Int64
        var date: String
        var content: String
        var createdAt: Int64
        var updatedAt: Int64
        var version: Int64
    }

    struct Change: Codable, Equatable {
        var sequence: Int64
        var kind: String
        var noteID: Int64
        var version: Int64
    }

    struct AccountState: Codable, Equatable {
        var id: Int64
        var email: String
        var passwordHash: String?
        var createdAt: Int64
        var tokens: [Token]
        /// Newest first, as pages list them.
        var notes: [StoredNote]
        var changePosition: Int64
        /// The feed as a client at each position from 0 to ``changePosition`` reads it
        /// (the index is the position): a removed note's tombstone shows to the clients
        /// that saw the note, whose position is at or past its creation.
        var changesAfter: [[Change]]
        /// Each query's matches, as note IDs in page order.
        var searches: [String: [Int64]]
    }

    var accounts: [AccountState]

    /// The queries every snapshot asks of every account: Latin, Cyrillic, Chinese,
    /// Japanese, Korean and emoji text, of one to many characters, folded and not, a
    /// removed note's and an edited note's former words, which must find nothing.
    static let queries = [
        "milk", "MILK", "会", "会议", "星期三下午", "寿司", "🍣", "회의", "привет", "ПРИВЕТ",
        "cafe", "café", "straße", "party at 7", "🎂", "lorem ipsum dolor", "maintenance",
        "forgotten words", "first draft", "final draft", "no such text anywhere", "e",
    ]

    static func take(of store: any NoteStore) async throws -> StoreSnapshot {
        var accounts: [AccountState] = []
        for account in try await store.allAccounts().sorted(by: { $0.id < $1.id }) {
            var tokens: [Token] = []
            for session in try await store.sessions(account: account.id) {
                let check = try await store.account(tokenHash: session.tokenHash)
                tokens.append(
                    Token(
                        hash: hex(session.tokenHash), kind: session.kind.rawValue,
                        createdAt: session.createdAt, lastUsedAt: session.lastUsedAt,
                        signsInto: check?.account.email))
            }
            let notes = try await store.notes(account: account.id, page: NotePage(limit: 10_000))
            let position = try await store.changePosition(account: account.id)
            var changesAfter: [[Change]] = []
            for cursor in 0...position {
                guard
                    case .page(let page) = try await store.changes(
                        account: account.id, after: cursor, limit: 10_000)
                else {
                    changesAfter.append([])
                    continue
                }
                changesAfter.append(
                    page.changes.map {
                        Change(
                            sequence: $0.sequence, kind: $0.kind.rawValue, noteID: $0.noteID,
                            version: $0.version)
                    })
            }
            var searches: [String: [Int64]] = [:]
            for query in queries {
                searches[query] = try await store.notes(
                    account: account.id, page: NotePage(limit: 10_000, containing: query)
                ).map(\.id)
            }
            accounts.append(
                AccountState(
                    id: account.id, email: account.email, passwordHash: account.passwordHash,
                    createdAt: account.createdAt, tokens: tokens.sorted { $0.hash < $1.hash },
                    notes: notes.map {
                        StoredNote(
                            id: $0.id, date: $0.date.description, content: $0.content,
                            createdAt: $0.createdAt,
                            updatedAt: $0.updatedAt, version: $0.version)
                    },
                    changePosition: position, changesAfter: changesAfter, searches: searches))
        }
        return StoreSnapshot(accounts: accounts)
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    static func decoded(from url: URL) throws -> StoreSnapshot {
        try JSONDecoder().decode(StoreSnapshot.self, from: Data(contentsOf: url))
    }

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
