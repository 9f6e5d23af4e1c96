import MyNotesDomain

extension StoreError {
    /// What the store's callers are told of a failure of its SQLite calls: the engine's
    /// report, or a row it read and could not make sense of.
    init(_ failure: SQLiteError) {
        self = failure.isCorruptRow ? .corruptRow(failure.message) : .database(failure)
    }
}
