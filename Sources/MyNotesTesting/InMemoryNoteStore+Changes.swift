import MyNotesDomain

extension InMemoryNoteStore {
    public func changes(
        account: Int64, after cursor: Int64?, limit: Int
    ) async throws(StoreError) -> FeedRead {
        try transaction { state in
            let start = cursor ?? 0
            let stored = state.accounts[account]
            // A tombstone of a note made after the cursor is left out: that reader never
            // saw the note.
            let rows = (state.changes[account] ?? [:])
                .filter { _, change in
                    change.sequence > start && (!change.deleted || change.createdSequence <= start)
                }
                .sorted { $0.value.sequence < $1.value.sequence }
                .prefix(max(0, limit) + 1)
                .map { noteID, change in
                    FeedRead.Row(
                        sequence: change.sequence, noteID: noteID, version: change.version,
                        deleted: change.deleted, createdSequence: change.createdSequence,
                        note: change.deleted
                            ? nil : Self.note(id: noteID, account: account, in: state))
                }
            return FeedRead.assemble(
                rows: Array(rows), position: stored?.changeSequence ?? 0,
                purged: stored?.purgedSequence ?? 0, after: cursor, limit: limit)
        }
    }

    public func changePosition(account: Int64) async throws(StoreError) -> Int64 {
        try transaction { state in state.accounts[account]?.changeSequence ?? 0 }
    }

    public func purgeChanges(removedBefore: Int64) async throws(StoreError) -> Int {
        try transaction { state in
            var removed = 0
            for (account, changes) in state.changes {
                let gone = changes.filter { $0.value.deleted && $0.value.changedAt < removedBefore }
                guard let newest = gone.values.map(\.sequence).max() else { continue }
                // The mark first: a cursor before any of these can no longer be answered for.
                if let purged = state.accounts[account]?.purgedSequence, newest > purged {
                    state.accounts[account]?.purgedSequence = newest
                }
                for noteID in gone.keys { state.changes[account]?[noteID] = nil }
                removed += gone.count
            }
            return removed
        }
    }

    /// Takes the account's next sequence for a write to `note` and keeps it as the note's
    /// latest change (a tombstone when `deleted`), in the write itself.
    static func recordChange(
        of note: Note, account: Int64, deleted: Bool, at changedAt: Int64, in state: inout State
    ) {
        guard var stored = state.accounts[account] else { return }
        stored.changeSequence += 1
        state.accounts[account] = stored
        let previous = state.changes[account]?[note.id]
        // Only the note's first write makes it; later ones keep when it was made.
        let created = previous.map { $0.createdSequence } ?? stored.changeSequence
        state.changes[account, default: [:]][note.id] = StoredChange(
            sequence: stored.changeSequence, createdSequence: created, version: note.version,
            deleted: deleted, changedAt: changedAt)
    }
}
