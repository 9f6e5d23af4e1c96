/// What came of a write made under a ``WritePrecondition``, decided inside the write's
/// own transaction: what it saw is what it did.
///
/// ```swift
/// switch try store.updateNote(
///     id: 7, account: id, change: NoteChange(content: "v2"), precondition: .matches([3]),
///     quota: .standard) {
/// case .applied(let note): print(note.version)  // 4
/// case .notFound: print("no such note")
/// case .preconditionFailed(let current): print("changed meanwhile, now \(String(describing: current))")
/// }
/// ```
public enum ConditionalWrite<Value: Sendable>: Sendable {
    case applied(Value)
    /// The account has no note with that ID, and the precondition did not ask for one.
    case notFound
    /// The precondition does not hold: nothing was written. `current` is the note as it
    /// is, or `nil` when ``WritePrecondition/exists`` found none.
    case preconditionFailed(current: Note?)
}

extension ConditionalWrite: Equatable where Value: Equatable {}
