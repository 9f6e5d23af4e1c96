import MyNotesDomain

/// Rows as `migrate` copies them between stores: every column that makes the data, IDs,
/// times and versions included, and nothing a store derives (email keys, folded content).
enum StoreRows {
    struct Account: Sendable, Hashable {
        var id: Int64
        var email: String
        var passwordHash: String?
        var createdAt: Int64
    }

    struct Token: Sendable, Hashable {
        var hash: [UInt8]
        var accountID: Int64
        var createdAt: Int64
        var lastUsedAt: Int64
        /// ``TokenKind``'s raw value, copied as stored.
        var kind: String
    }

    struct Note: Sendable, Hashable {
        var accountID: Int64
        var note: MyNotesDomain.Note
    }

    struct Counts: Sendable, Hashable, CustomStringConvertible {
        var accounts: Int
        var tokens: Int
        var notes: Int

        var isEmpty: Bool { accounts == 0 && tokens == 0 && notes == 0 }

        var description: String { "\(accounts) accounts, \(tokens) tokens, \(notes) notes" }
    }
}
