extension StoreError {
    /// What ``corruptRow(_:)`` says of a note whose stored date is not one, in the words
    /// of both stores.
    ///
    /// ```swift
    /// StoreError.unreadableDate("2026-13-01", ofNote: 12)
    /// // note 12 has date "2026-13-01", not yyyy-MM-dd or yyyy-MM-dd HH:mm:ss
    /// ```
    package static func unreadableDate(_ text: String, ofNote id: Int64) -> String {
        // Quoted and escaped, and cut short: the text may be anything, of any length.
        let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
        return "note \(id) has date \(String(reflecting: shown)), "
            + "not yyyy-MM-dd or yyyy-MM-dd HH:mm:ss"
    }
}
