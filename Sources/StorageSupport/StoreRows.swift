import MyNotesDomain

/// Rows as `migrate` copies them between stores: every column that makes the data, IDs,
/// times and versions included, and nothing a store derives (email keys, folded content).
package enum StoreRows {
    package struct Account: Sendable, Hashable {
        package var id: Int64
        package var email: String
        package var passwordHash: String?
        package var createdAt: Int64

        package init(id: Int64, email: String, passwordHash: String?, createdAt: Int64) {
            self.id = id
            self.email = email
            self.passwordHash = passwordHash
            self.createdAt = createdAt
        }
    }

    package struct Token: Sendable, Hashable {
        package var hash: [UInt8]
        package var accountID: Int64
        package var createdAt: Int64
        package var lastUsedAt: Int64
        /// ``TokenKind``'s raw value, copied as stored.
        package var kind: String

        package init(
            hash: [UInt8], accountID: Int64, createdAt: Int64, lastUsedAt: Int64, kind: String
        ) {
            self.hash = hash
            self.accountID = accountID
            self.createdAt = createdAt
            self.lastUsedAt = lastUsedAt
            self.kind = kind
        }
    }

    package struct Note: Sendable, Hashable {
        package var accountID: Int64
        package var note: MyNotesDomain.Note

        package init(accountID: Int64, note: MyNotesDomain.Note) {
            self.accountID = accountID
            self.note = note
        }
    }

    package struct Counts: Sendable, Hashable, CustomStringConvertible {
        package var accounts: Int
        package var tokens: Int
        package var notes: Int

        package init(accounts: Int, tokens: Int, notes: Int) {
            self.accounts = accounts
            self.tokens = tokens
            self.notes = notes
        }

        package var isEmpty: Bool { accounts == 0 && tokens == 0 && notes == 0 }

        package var description: String { "\(accounts) accounts, \(tokens) tokens, \(notes) notes" }
    }
}
