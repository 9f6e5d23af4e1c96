import MyNotesDomain

extension InMemoryNoteStore {
    public func notes(account: Int64, page: NotePage) async throws(StoreError) -> [Note] {
        try transaction { state in Self.notes(account: account, page: page, in: state) }
    }

    public func checkedNotes(
        email: String, presenting tokenHash: [UInt8]?,
        admitting admit: @escaping @Sendable (TokenCheck?) -> Bool, page: NotePage
    ) async throws(StoreError) -> (check: TokenCheck?, notes: [Note]) {
        // `admit` runs under the lock, as it runs inside the real stores' one read: the
        // check and the notes come from the same state.
        try transaction { state in
            let check = Self.tokenCheck(email: email, presenting: tokenHash, in: state)
            guard admit(check), let account = check?.account else { return (check, []) }
            return (check, Self.notes(account: account.id, page: page, in: state))
        }
    }

    public func note(id: Int64, account: Int64) async throws(StoreError) -> Note? {
        try transaction { state in Self.note(id: id, account: account, in: state) }
    }

    public func addNote(
        _ draft: NoteDraft, account: Int64, quota: NoteQuota
    ) async throws(StoreError) -> Note {
        let now = self.now()
        let note = try transaction { state throws(StoreError) in
            guard let held = state.accounts[account] else {
                throw .database(InMemoryStoreFailure("no account \(account) for the note"))
            }
            // Against the running totals, in the write itself.
            if let limit = quota.exceeded(
                addingNoteOf: draft.content.utf8.count, toNotes: held.noteCount,
                ofBytes: held.noteBytes)
            {
                throw .quotaExceeded(limit)
            }
            state.lastNoteID += 1
            let note = Note(
                id: state.lastNoteID, date: draft.date, content: draft.content, createdAt: now,
                updatedAt: now)
            state.notes[note.id] = StoredNote(account: account, note: note)
            state.accounts[account]?.noteCount += 1
            state.accounts[account]?.noteBytes += draft.content.utf8.count
            Self.recordChange(of: note, account: account, deleted: false, at: now, in: &state)
            return note
        }
        post(.account(account))
        return note
    }

    public func updateNote(
        id: Int64, account: Int64, change: NoteChange, precondition: WritePrecondition,
        quota: NoteQuota
    ) async throws(StoreError) -> ConditionalWrite<Note> {
        let now = self.now()
        let outcome = try transaction { state throws(StoreError) -> ConditionalWrite<Note> in
            if let refusal: ConditionalWrite<Note> = Self.refusal(
                precondition, id: id, account: account, in: state)
            {
                return refusal
            }
            guard var note = Self.note(id: id, account: account, in: state) else {
                return precondition == .exists ? .preconditionFailed(current: nil) : .notFound
            }
            let oldBytes = note.content.utf8.count
            if let content = change.content,
                let limit = quota.exceeded(
                    growingBy: content.utf8.count - oldBytes,
                    from: state.accounts[account]?.noteBytes ?? 0)
            {
                throw .quotaExceeded(limit)
            }
            // Fields left out keep the value the note has now, inside this write.
            note.date = change.date ?? note.date
            note.content = change.content ?? note.content
            note.updatedAt = now
            note.version += 1
            state.notes[id]?.note = note
            state.accounts[account]?.noteBytes += note.content.utf8.count - oldBytes
            Self.recordChange(of: note, account: account, deleted: false, at: now, in: &state)
            return .applied(note)
        }
        if case .applied = outcome { post(.account(account)) }
        return outcome
    }

    public func removeNote(
        id: Int64, account: Int64, precondition: WritePrecondition
    ) async throws(StoreError) -> ConditionalWrite<Void> {
        let now = self.now()
        let outcome = try transaction { state throws(StoreError) -> ConditionalWrite<Void> in
            if let refusal: ConditionalWrite<Void> = Self.refusal(
                precondition, id: id, account: account, in: state)
            {
                return refusal
            }
            guard let note = Self.note(id: id, account: account, in: state) else {
                return precondition == .exists ? .preconditionFailed(current: nil) : .notFound
            }
            state.notes[id] = nil
            state.accounts[account]?.noteCount -= 1
            state.accounts[account]?.noteBytes -= note.content.utf8.count
            Self.recordChange(of: note, account: account, deleted: true, at: now, in: &state)
            return .applied(())
        }
        if case .applied = outcome { post(.account(account)) }
        return outcome
    }

    /// What a write on condition of a version answers instead of writing, or `nil` when it
    /// may go ahead (a missing note is then the write's to answer for).
    private static func refusal<Value>(
        _ precondition: WritePrecondition, id: Int64, account: Int64, in state: State
    ) -> ConditionalWrite<Value>? {
        guard case .matches(let versions) = precondition else { return nil }
        guard let current = note(id: id, account: account, in: state) else { return .notFound }
        return versions.contains(current.version) ? nil : .preconditionFailed(current: current)
    }

    /// The note when the account holds it: a note of another account is not found.
    static func note(id: Int64, account: Int64, in state: State) -> Note? {
        guard let stored = state.notes[id], stored.account == account else { return nil }
        return stored.note
    }

    /// One page of the account's notes, newest first by date then ID, strictly after the
    /// page's position, those whose folded content holds the folded search text.
    static func notes(account: Int64, page: NotePage, in state: State) -> [Note] {
        let needle = page.containing.map { Array(TextFolding.fold($0).utf8) }
            .flatMap { $0.isEmpty ? nil : $0 }
        let after = page.after.map { (Array($0.sortKey.utf8), $0.id) }
        let found = state.notes.values.lazy.filter { $0.account == account }.map(\.note)
            .map { (key: Array($0.position.sortKey.utf8), note: $0) }
            .filter { entry in
                guard let after else { return true }
                return entry.key == after.0
                    ? entry.note.id < after.1 : entry.key.lexicographicallyPrecedes(after.0)
            }
            .filter { entry in
                guard let needle else { return true }
                return contains(Array(TextFolding.fold(entry.note.content).utf8), needle)
            }
        // Text keys compare as the databases compare them: byte by byte.
        let sorted = found.sorted { left, right in
            left.key == right.key
                ? left.note.id > right.note.id : right.key.lexicographicallyPrecedes(left.key)
        }
        return sorted.prefix(max(0, page.limit)).map(\.note)
    }

    /// Whether `needle` occurs in `haystack`, byte for byte (SQLite's `instr` on folded text).
    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count)
        where haystack[start..<start + needle.count].elementsEqual(needle) {
            return true
        }
        return false
    }
}
