/// Where the store is, as given by `--database`: `sqlite:PATH`.
///
/// ```swift
/// let store = try StoreLocation(parsing: "sqlite:./mynotes.sqlite").open()
/// ```
public enum StoreLocation: Sendable, Hashable, CustomStringConvertible {
    case sqlite(path: String)

    public init(parsing text: String) throws(StoreError) {
        if text.hasPrefix("sqlite:"), text.count > "sqlite:".count {
            var path = text.dropFirst("sqlite:".count)
            // Accept the URL spelling `sqlite:///abs/path` as well as `sqlite:PATH`.
            if path.hasPrefix("//") { path = path.dropFirst(2) }
            self = .sqlite(path: String(path))
        } else {
            throw .unsupportedLocation(text)
        }
    }

    /// Opens the store; `indexing` hears how far building the search index has come when
    /// the database holds notes the index lacks (all of them after an upgrade).
    public func open(
        limits: StoreLimits = StoreLimits(),
        indexing: @escaping (SearchIndexProgress) -> Void = { _ in }
    ) throws(StoreError) -> any NoteStore {
        switch self {
        case .sqlite(let path): try SQLiteNoteStore(path: path, limits: limits, indexing: indexing)
        }
    }

    public var description: String {
        switch self {
        case .sqlite(let path): "sqlite:\(path)"
        }
    }
}
