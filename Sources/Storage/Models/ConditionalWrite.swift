/// What came of a write made on condition that the note is still at a version.
///
/// ```swift
/// switch try store.updateNote(id: 7, account: id, with: draft, ifVersion: 3) {
/// case .applied(let note): print(note.version)  // 4
/// case .notFound: print("no such note")
/// case .versionMismatch(let current): print("changed meanwhile, now \(current)")
/// }
/// ```
public enum ConditionalWrite<Value: Sendable>: Sendable {
    case applied(Value)
    /// The account has no note with that ID.
    case notFound
    /// The note exists but is at another version: nothing was written.
    case versionMismatch(current: Int64)
}

extension ConditionalWrite: Equatable where Value: Equatable {}
