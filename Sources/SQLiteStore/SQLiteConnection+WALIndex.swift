import CSQLite
import MyNotesDomain

extension SQLiteConnection {
    /// The start of the database's WAL index (the `-shm` file), as SQLite itself maps it
    /// for this connection: valid until the connection closes. `nil` when the database is
    /// not in WAL mode (asking would make SQLite create the file) or has no such mapping
    /// (an in-memory database).
    ///
    /// SQLite's own mapping, not one of ours: opening the `-shm` file and closing that
    /// descriptor would drop every POSIX lock this process holds on the file, the
    /// connections' shared "still in use" lock among them, and the next process to open
    /// the database would then take itself for the only one and truncate the file under
    /// the mappings of this process's connections (SIGBUS, as a test run found).
    func walIndexStart() -> UnsafeRawPointer? {
        guard (try? walJournal()) == true else { return nil }
        var file: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_FILE_POINTER, &file) == SQLITE_OK,
            let file, let methods = file.pointee.pMethods, methods.pointee.iVersion >= 2,
            let map = methods.pointee.xShmMap
        else { return nil }
        // Region 0 is mapped by the connection's first read; with `bExtend` 0 this only
        // hands it over (32 KiB: SQLite's region size).
        var region: UnsafeMutableRawPointer?
        guard map(file, 0, 32_768, 0, &region) == SQLITE_OK, let region else { return nil }
        return UnsafeRawPointer(region)
    }

    private func walJournal() throws(SQLiteError) -> Bool {
        let mode = try statement("PRAGMA journal_mode")
        defer { finishStatements() }
        return try mode.step() && mode.text(0).lowercased() == "wal"
    }
}
