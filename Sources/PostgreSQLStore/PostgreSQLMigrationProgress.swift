import MyNotesDomain

/// What a PostgreSQL store tells while it migrates a database that holds notes, where a
/// step may take minutes (building the search indexes over a million notes): each step's start
/// and end, and in between, at every 5% and at least every 30 seconds, how far PostgreSQL
/// has come with an index the step builds (`pg_stat_progress_create_index`).
/// A new, empty database tells nothing.
///
/// ```swift
/// let store = try PostgreSQLNoteStore(conninfo: uri, migrating: { print($0) })
/// // migration notes-trigram-index: started
/// // migration notes-trigram-index: building index, 5,210 of 21,934 blocks (23%)
/// // migration notes-trigram-index: done in 41.2 s
/// ```
public enum PostgreSQLMigrationProgress: Sendable, Hashable, CustomStringConvertible {
    case started(step: String)
    /// PostgreSQL's phase of the index build (`building index`, …) and the table's blocks
    /// it has read.
    case building(step: String, phase: String, blocksDone: Int, blocksTotal: Int)
    case finished(step: String, duration: Duration)

    /// The migration step it tells of.
    public var step: String {
        switch self {
        case .started(let step), .building(let step, _, _, _), .finished(let step, _): step
        }
    }

    public var description: String {
        switch self {
        case .started(let step): return "migration \(step): started"
        case .building(let step, let phase, let done, let total):
            guard total > 0 else { return "migration \(step): \(phase)" }
            return "migration \(step): \(phase), \(Self.grouped(done)) of \(Self.grouped(total))"
                + " blocks (\(done * 100 / total)%)"
        case .finished(let step, let duration):
            let tenths = Int(duration / .milliseconds(100))
            return "migration \(step): done in \(tenths / 10).\(tenths % 10) s"
        }
    }

    /// `21934` as `21,934`.
    private static func grouped(_ value: Int) -> String {
        var digits = String(value.magnitude)
        var index = digits.endIndex
        while digits.distance(from: digits.startIndex, to: index) > 3 {
            index = digits.index(index, offsetBy: -3)
            digits.insert(",", at: index)
        }
        return value < 0 ? "-" + digits : digits
    }
}
