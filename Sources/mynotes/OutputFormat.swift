/// How commands print notes (`--format`).
enum OutputFormat: String, CaseIterable {
    /// Aligned columns for people.
    case table
    /// The `Notes.json` format, as `export` writes it.
    case json
    /// The `Notes.xml` format, as `export` writes it.
    case xml
}
