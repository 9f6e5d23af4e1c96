import MyNotesDomain

/// How a ``SQLiteWriter`` whose database turned out read-only gets a writable
/// connection back: whether the file can be written now (asked before each batch while
/// read-only, so it must be cheap), and how to open it again, which also has every other
/// connection of the store let go of the file.
struct SQLiteWriterRecovery: Sendable {
    let isWritable: @Sendable () -> Bool
    let reopen: @Sendable () throws(SQLiteError) -> SQLiteConnection
}
