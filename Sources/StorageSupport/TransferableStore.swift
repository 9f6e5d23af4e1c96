import MyNotesDomain

/// What `migrate` needs of a store beyond ``NoteStore``: its rows in a stable order (IDs
/// ascending), and inserting rows as they are, IDs and all.
package protocol TransferableStore: NoteStore {
    func rowCounts() async throws(StoreError) -> StoreRows.Counts
    func accountRows() async throws(StoreError) -> [StoreRows.Account]
    func tokenRows() async throws(StoreError) -> [StoreRows.Token]
    /// Up to `limit` notes with IDs above `after`, by ID.
    func noteRows(after: Int64, limit: Int) async throws(StoreError) -> [StoreRows.Note]
    func insert(accounts: [StoreRows.Account], tokens: [StoreRows.Token]) async throws(StoreError)
    func insert(notes: [StoreRows.Note]) async throws(StoreError)
    /// Deletes every account, token and note.
    func removeAll() async throws(StoreError)
    /// After inserting rows with their own IDs: new IDs continue above the highest.
    func continueIDs() async throws(StoreError)
}
