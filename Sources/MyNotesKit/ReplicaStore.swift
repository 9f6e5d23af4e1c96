import Foundation

/// Where a ``NotesReplica`` keeps its state between runs: its notes, its cursor, the
/// changes not pushed yet and the conflicts not resolved. One opaque document, written
/// whole after every change; ``FileReplicaStore`` keeps it in a file, and an app may
/// keep it anywhere else (its database, the keychain …) by conforming to this.
///
/// A store must write atomically: a crash during ``save(_:)`` leaves the old document
/// or the new one, never a mix, or queued changes could be lost.
///
/// ```swift
/// struct DefaultsReplicaStore: ReplicaStore {
///     func load() throws(ReplicaError) -> Data? { UserDefaults.standard.data(forKey: "notes") }
///     func save(_ state: Data) throws(ReplicaError) {
///         UserDefaults.standard.set(state, forKey: "notes")
///     }
/// }
/// ```
public protocol ReplicaStore: Sendable {
    /// The document saved last, or `nil` when nothing was saved yet.
    func load() throws(ReplicaError) -> Data?
    /// Replaces the document, atomically.
    func save(_ state: Data) throws(ReplicaError)
}
