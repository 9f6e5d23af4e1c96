/// The notes of every account. Each method takes the account's ID, so a note of another
/// account is simply not found. Writes decide their quota and precondition inside the
/// write itself, so two writers never both pass a check that only one may.
public protocol NoteCollection: Sendable {
    /// One page of the account's notes, newest first (see ``NotePage``).
    func notes(account: Int64, page: NotePage) async throws(StoreError) -> [Note]
    /// The account with that email and whether `tokenHash` is one of its tokens, then,
    /// only when `admit` accepts that check, the first `page` of its notes, in one read.
    /// The check costs the same whether or not the account exists, so its time does not
    /// tell which emails have accounts; a refused check reads no note. The check is `nil`
    /// when there is no such account.
    func checkedNotes(
        email: String, presenting tokenHash: [UInt8]?,
        admitting admit: @escaping @Sendable (TokenCheck?) -> Bool, page: NotePage
    ) async throws(StoreError) -> (check: TokenCheck?, notes: [Note])
    func note(id: Int64, account: Int64) async throws(StoreError) -> Note?
    /// A new note, unless it would take the account past `quota` (checked in the write
    /// itself, against running totals).
    func addNote(_ draft: NoteDraft, account: Int64, quota: NoteQuota) async throws(StoreError)
        -> Note
    /// Applies `change` to the note when `precondition` holds and the new content keeps
    /// the account within `quota`'s bytes, deciding all in one write: the version then
    /// grows by one.
    func updateNote(
        id: Int64, account: Int64, change: NoteChange, precondition: WritePrecondition,
        quota: NoteQuota
    ) async throws(StoreError) -> ConditionalWrite<Note>
    /// Removes the note when `precondition` holds, deciding both in one write.
    func removeNote(
        id: Int64, account: Int64, precondition: WritePrecondition
    ) async throws(StoreError) -> ConditionalWrite<Void>
}
