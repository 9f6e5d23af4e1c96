extension FeedRead {
    /// One row of a feed read: a change, with the note as it is when the change is live.
    package struct Row {
        package var sequence: Int64
        package var noteID: Int64
        package var version: Int64
        package var deleted: Bool
        /// The sequence of the change that made the note.
        package var createdSequence: Int64
        package var note: Note?

        package init(
            sequence: Int64, noteID: Int64, version: Int64, deleted: Bool,
            createdSequence: Int64, note: Note?
        ) {
            self.sequence = sequence
            self.noteID = noteID
            self.version = version
            self.deleted = deleted
            self.createdSequence = createdSequence
            self.note = note
        }
    }

    /// The answer to a read of up to `limit + 1` rows after `cursor`, made in one snapshot
    /// with the account's `position` and the newest sequence its purges removed.
    package static func assemble(
        rows: [Row], position: Int64, purged: Int64, after cursor: Int64?, limit: Int
    ) -> FeedRead {
        if let cursor, cursor < purged || cursor > position { return .expired }
        let start = cursor ?? 0
        let shown = rows.prefix(limit)
        let changes = shown.compactMap { row -> FeedChange? in
            guard row.deleted || row.note != nil else { return nil }
            let kind: FeedChange.Kind =
                row.deleted ? .deleted : row.createdSequence > start ? .created : .updated
            return FeedChange(
                sequence: row.sequence, kind: kind, noteID: row.noteID, version: row.version,
                note: row.deleted ? nil : row.note)
        }
        let hasMore = rows.count > limit
        let last = shown.last?.sequence ?? start
        return .page(
            FeedPage(changes: changes, cursor: hasMore ? last : position, hasMore: hasMore))
    }
}
