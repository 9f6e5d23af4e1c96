/// How far a search index may fall behind its notes, the same for both stores so that an
/// account's searches behave alike whichever database holds it: SQLite counts the notes
/// waiting to be indexed, PostgreSQL the changes.
///
/// ```swift
/// if waiting >= SearchIndexLag.priority { indexNow() }
/// ```
package enum SearchIndexLag {
    /// Waiting past which the index is behind, searched or not.
    package static let priority = 250_000
    /// Waiting past which a search puts the index behind.
    package static let searched = 20_000
}
