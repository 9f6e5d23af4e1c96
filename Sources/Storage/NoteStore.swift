/// Where accounts and notes live. Every method is safe to call from many threads
/// at once; a write that returns has been made durable.
///
/// Notes belong to one account; every note method takes the account's ID, so a
/// note of another account is simply not found.
///
/// ```swift
/// let store = try SQLiteNoteStore(path: "mynotes.sqlite")
/// let account = try store.createAccount(email: "a@example.com", tokenHash: hash)
/// let note = try store.addNote(
///     NoteDraft(date: "2026-11-29", content: "Buy milk"), account: account.id, quota: .unlimited)
/// ```
public protocol NoteStore: Sendable {
    func account(email: String) throws(StoreError) -> Account?
    func createAccount(email: String, tokenHash: [UInt8]) throws(StoreError) -> Account
    func allAccounts() throws(StoreError) -> [Account]
    /// Removes the account and all its notes; `false` when there was none.
    func removeAccount(email: String) throws(StoreError) -> Bool
    /// Replaces the account's token hash; `false` when there is no such account.
    func replaceTokenHash(email: String, tokenHash: [UInt8]) throws(StoreError) -> Bool

    /// The account's notes, newest first: by date as a point in time, then ID, descending.
    func notes(account: Int64) throws(StoreError) -> [Note]
    /// The account with that email and its notes (newest first), read together in one
    /// query: the legacy `query` action needs both, and one round trip beats two.
    /// The caller must check the account's credentials before showing the notes.
    func accountAndNotes(email: String) throws(StoreError) -> (account: Account, notes: [Note])?
    func note(id: Int64, account: Int64) throws(StoreError) -> Note?
    func addNote(_ draft: NoteDraft, account: Int64, quota: NoteQuota) throws(StoreError) -> Note
    /// The updated note, or `nil` when the account has no note with that ID.
    func updateNote(id: Int64, account: Int64, with draft: NoteDraft) throws(StoreError) -> Note?
    /// `false` when the account has no note with that ID.
    func removeNote(id: Int64, account: Int64) throws(StoreError) -> Bool

    /// Finishes pending writes and closes the database.
    func close()
}
