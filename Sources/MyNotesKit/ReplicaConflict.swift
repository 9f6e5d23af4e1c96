/// A change made in a ``NotesReplica`` that the server did not take as it was: the note
/// had changed (or gone) on the server since the replica last saw it, or the server
/// refused the change. Both versions are kept here until the app chooses
/// (``NotesReplica/resolve(_:keeping:)``); nothing is lost meanwhile, across restarts too.
///
/// ```swift
/// for conflict in await replica.conflicts {
///     let choice = ask("Keep which?", mine: conflict.local, theirs: conflict.server)
///     try await replica.resolve(conflict.id, keeping: choice)   // .local, .server or .both
/// }
/// ```
public struct ReplicaConflict: Sendable, Hashable, Identifiable {
    /// Why the change was not taken.
    public enum Reason: Sendable, Hashable {
        /// The note changed on the server since the replica's version (HTTP 412).
        case changedOnServer
        /// The note was removed on the server (HTTP 404 or 412 without a note).
        case removedOnServer
        /// The server refused the change itself (e.g. over the quota); its message.
        case refused(String)
    }

    /// Which version to keep.
    public enum Resolution: Sendable, Hashable, CaseIterable {
        /// The server's: the local change is dropped.
        case server
        /// This replica's: it overwrites the server's (or re-adds a note removed there).
        case local
        /// Both: the server's stays, the local version is added as a new note.
        case both
    }

    /// Identifies the conflict among the replica's.
    public let id: Int
    /// The note's server ID; `nil` for a note added here that the server refused.
    public let noteID: Int?
    /// What the replica wanted: the note with its local date and content; `nil` when the
    /// local change was a removal.
    public let local: ReplicaNote?
    /// The note as the server has it; `nil` when it is gone there.
    public let server: ReplicaNote?
    /// Why the change was not taken.
    public let reason: Reason
}
