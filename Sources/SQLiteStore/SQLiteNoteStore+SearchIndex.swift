import MyNotesDomain

extension SQLiteNoteStore {
    /// Moves every note waiting for the search index into it now, through the writer,
    /// instead of leaving them to the batches the writer runs when the store is quiet.
    /// Searches find waiting notes too (they test them one by one): this only makes them
    /// cheaper, before a measurement or after a large import.
    ///
    /// ```swift
    /// try await store.catchUpSearchIndex()
    /// ```
    public func catchUpSearchIndex() async throws(StoreError) {
        let searchIndexer = self.searchIndexer
        try await writing(touching: { _ in .accounts([]) }) { connection throws(SQLiteError) in
            while try !SQLiteSearchIndex.indexWaiting(
                on: connection, limit: SQLiteSearchIndex.buildBatch
            ).isLast {}
            searchIndexer.caughtUp()
        }
    }

    /// Indexes for search the notes another program wrote straight into the database at
    /// `path` (a bulk import, a test's fixture), on a connection of its own, as a store
    /// opening the database would: a store that has it open finds them either way, and
    /// this spares its searches testing them one by one until its batches take them.
    ///
    /// ```swift
    /// try SQLiteNoteStore.indexWaitingNotes(inDatabaseAt: "/var/lib/mynotes/mynotes.sqlite")
    /// ```
    public static func indexWaitingNotes(inDatabaseAt path: String) throws(StoreError) {
        do throws(SQLiteError) {
            let connection = try SQLiteConnection(path: path, mode: .readWrite)
            defer { connection.finishStatements() }
            try SQLiteSearchIndex.indexMissingNotes(
                on: connection, segments: .asWritten, progress: { _ in })
        } catch {
            throw .database(error)
        }
    }
}
