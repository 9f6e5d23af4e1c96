import MyNotesDomain

/// The unconditional forms the older tests were written with, over the store's one
/// conditional API.
extension NoteStore {
    /// Two accounts without token or password, `ann@x` and `bob@x`: their IDs.
    func annAndBob() async throws(StoreError) -> (ann: Int64, bob: Int64) {
        let ann = try await createAccount(email: "ann@x", tokenHash: nil, passwordHash: nil)
        let bob = try await createAccount(email: "bob@x", tokenHash: nil, passwordHash: nil)
        return (ann.id, bob.id)
    }

    /// Every note of the account, newest first.
    func notes(account: Int64) async throws(StoreError) -> [Note] {
        try await notes(account: account, page: NotePage(limit: .max))
    }

    /// The updated note, or `nil` when the account has no note with that ID.
    func updateNote(id: Int64, account: Int64, with draft: NoteDraft) async throws(StoreError)
        -> Note?
    {
        if case .applied(let note) = try await updateNote(
            id: id, account: account, change: NoteChange(draft), precondition: .none,
            quota: .unlimited)
        {
            return note
        }
        return nil
    }

    /// `false` when the account has no note with that ID.
    func removeNote(id: Int64, account: Int64) async throws(StoreError) -> Bool {
        if case .applied = try await removeNote(id: id, account: account, precondition: .none) {
            return true
        }
        return false
    }
}
