/// What changed in a ``NotesReplica``, for a UI to follow (``NotesReplica/events()``).
///
/// ```swift
/// for await event in await replica.events() {
///     switch event {
///     case .changed(let note): list.upsert(note)
///     case .removed(let id): list.remove(id)
///     case .identified(let old, let note): list.replace(old, with: note)
///     case .conflict(let conflict): showChoice(conflict)
///     case .reloaded: list.reload(await replica.notes)
///     }
/// }
/// ```
public enum ReplicaEvent: Sendable, Hashable {
    /// A note was added or changed, here or on the server; the note as it now shows.
    case changed(ReplicaNote)
    /// A note was removed, here or on the server.
    case removed(ReplicaNoteID)
    /// A note added here was pushed and has its server ID now (the old ID no longer works).
    case identified(ReplicaNoteID, as: ReplicaNote)
    /// A change made here was not taken by the server; both versions are kept.
    case conflict(ReplicaConflict)
    /// The replica was rebuilt from a full listing (its cursor had expired): read
    /// ``NotesReplica/notes`` again.
    case reloaded
}
