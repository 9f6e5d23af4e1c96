import MyNotesDomain

/// Why `migrate` stopped.
///
/// ```swift
/// catch .targetNotEmpty(let what) { print("\(what): pass --force to replace it") }
/// ```
public enum StoreCopyError: Error, CustomStringConvertible, Sendable {
    /// The target holds data, and the copy was not told to replace it.
    case targetNotEmpty(String)
    /// After the copy, the stores' counts or checksums differ.
    case mismatch(String)
    case store(StoreError)

    public var description: String {
        switch self {
        case .targetNotEmpty(let what): "the target is not empty (\(what))"
        case .mismatch(let what): "the copy does not match its source: \(what)"
        case .store(let error): error.description
        }
    }
}
