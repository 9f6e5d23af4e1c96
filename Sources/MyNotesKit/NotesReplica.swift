import Foundation

/// A local copy of an account's notes that an app keeps: read and edited at once, even
/// offline, and brought up to date with the server by ``sync()`` (or continuously by
/// ``follow(reconnection:)``).
///
/// - Pulling goes through the change feed (``NotesAPIClient/changes(since:limit:)``) from
///   the replica's cursor; when the server no longer keeps that far back (HTTP 410) the
///   replica reloads every note and keeps its unpushed changes.
/// - Local changes (``add(_:date:)``, ``edit(_:content:date:)``, ``remove(_:)``) show in
///   ``notes`` at once and wait in a queue, saved in the ``ReplicaStore`` before the call
///   returns, so they survive a restart. ``sync()`` pushes them in order: adds by POST,
///   edits and removals with `If-Match` on the version they were made on.
/// - A change the server refuses because the note changed there meanwhile becomes a
///   ``ReplicaConflict`` holding both versions; the app chooses
///   (``resolve(_:keeping:)``), or the replica keeps both at once with
///   ``ConflictPolicy/keepBoth``. Neither version is ever dropped unasked.
/// - ``events()`` tells a UI what changed.
///
/// ```swift
/// let store = FileReplicaStore(url: folder.appendingPathComponent("notes.json"))
/// let replica = try NotesReplica(client: client, store: store)
/// let note = try await replica.add("Buy milk")          // works offline
/// try await replica.edit(note.id, content: "Buy oat milk")
/// let report = try await replica.sync()                 // pull, then push
/// for conflict in report.conflicts {
///     try await replica.resolve(conflict.id, keeping: .both)
/// }
/// ```
public actor NotesReplica {
    /// What the replica does when the server refuses a local change because the note
    /// changed there.
    public enum ConflictPolicy: Sendable, Hashable {
        /// Keeps the conflict for the app to resolve (``NotesReplica/resolve(_:keeping:)``).
        case hold
        /// Keeps both at once: the server's version stays, the local one is added as a
        /// new note (a local removal is dropped, the note stays). Conflicts where the
        /// server refused the change itself are held whatever the policy.
        case keepBoth
    }

    /// The client the replica syncs through.
    public let client: NotesAPIClient
    let store: any ReplicaStore
    let policy: ConflictPolicy
    var state: ReplicaState
    /// The queued change being pushed: later changes of its note queue after it.
    var inFlight: Int?
    private var subscribers: [Int: AsyncStream<ReplicaEvent>.Continuation] = [:]
    private var nextSubscriber = 0
    private var busy = false
    private var waitingForTurn: [CheckedContinuation<Void, Never>] = []

    /// Opens the replica kept in `store` (an empty one if the store has none yet).
    ///
    /// ```swift
    /// let replica = try NotesReplica(client: client, store: FileReplicaStore(url: url))
    /// ```
    /// - Throws: `.store` when the store cannot be read, `.unreadableState` when what it
    ///   holds is not a replica's state.
    public init(client: NotesAPIClient, store: any ReplicaStore, conflicts: ConflictPolicy = .hold)
        throws(ReplicaError)
    {
        self.client = client
        self.store = store
        policy = conflicts
        state =
            try store.load().map { data throws(ReplicaError) in try ReplicaState.decode(data) }
            ?? ReplicaState()
    }

    // MARK: - Reading

    /// Every note, newest first, local changes included.
    public var notes: [ReplicaNote] { state.notes }

    /// One note, local changes included; `nil` if there is none with that ID.
    public func note(_ id: ReplicaNoteID) -> ReplicaNote? { state.note(id) }

    /// The conflicts waiting for the app, oldest first.
    public var conflicts: [ReplicaConflict] { state.publicConflicts }

    /// How many local changes wait to be pushed.
    public var pendingCount: Int { state.pending.count }

    /// Where the replica is in the change feed; `nil` before the first sync.
    public var cursor: ChangeCursor? { state.cursor }

    // MARK: - Local changes

    /// Adds a note here; the next sync creates it on the server, where it gets its ID.
    ///
    /// ```swift
    /// let note = try await replica.add("Call Bob", date: NoteDate("2026-12-01 09:00")!)
    /// print(note.id)   // new-1, until synced
    /// ```
    @discardableResult
    public func add(_ content: String, date: NoteDate = .now) throws(ReplicaError) -> ReplicaNote {
        guard !content.isEmpty else { throw .emptyContent }
        var id = ReplicaNoteID.local(0)
        try change { state throws(ReplicaError) in id = state.add(date: date, content: content) }
        let note = state.note(id)!
        emit(.changed(note))
        return note
    }

    /// Changes a note's content, date or both here; the next sync pushes it with the
    /// `If-Match` of the version it was made on.
    ///
    /// ```swift
    /// try await replica.edit(.server(12), content: "Buy oat milk")
    /// ```
    @discardableResult
    public func edit(_ id: ReplicaNoteID, content: String? = nil, date: NoteDate? = nil)
        throws(ReplicaError) -> ReplicaNote
    {
        if content?.isEmpty == true { throw .emptyContent }
        let inFlight = self.inFlight
        try change { state throws(ReplicaError) in
            try state.edit(id, date: date, content: content, inFlight: inFlight)
        }
        let note = state.note(id)!
        emit(.changed(note))
        return note
    }

    /// Removes a note here; the next sync removes it on the server, if it has not
    /// changed there meanwhile.
    ///
    /// ```swift
    /// try await replica.remove(.server(12))
    /// ```
    public func remove(_ id: ReplicaNoteID) throws(ReplicaError) {
        let inFlight = self.inFlight
        try change { state throws(ReplicaError) in try state.remove(id, inFlight: inFlight) }
        emit(.removed(id))
    }

    /// Ends a conflict: keeps the server's version, the local one, or both (the local one
    /// as a new note). What that takes is pushed on the next sync.
    ///
    /// ```swift
    /// try await replica.resolve(conflict.id, keeping: .both)
    /// ```
    public func resolve(_ conflict: Int, keeping resolution: ReplicaConflict.Resolution)
        throws(ReplicaError)
    {
        let before = Set(state.notes.map(\.id))
        try change { state throws(ReplicaError) in try state.resolve(conflict, keeping: resolution)
        }
        for note in state.notes where !before.contains(note.id) || note.isPending {
            emit(.changed(note))
        }
    }

    // MARK: - Events

    /// What changes in the replica from now on, for as long as the loop runs.
    ///
    /// ```swift
    /// Task {
    ///     for await event in await replica.events() { render(event) }
    /// }
    /// ```
    public func events() -> AsyncStream<ReplicaEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: ReplicaEvent.self)
        let id = nextSubscriber
        nextSubscriber += 1
        subscribers[id] = continuation
        continuation.onTermination = { _ in
            Task { await self.unsubscribe(id) }
        }
        return stream
    }

    private func unsubscribe(_ id: Int) {
        subscribers[id] = nil
    }

    func emit(_ event: ReplicaEvent) {
        for subscriber in subscribers.values { subscriber.yield(event) }
    }

    // MARK: - State

    /// Applies `body` to a copy of the state and keeps the result only once it is saved.
    func change(_ body: (inout ReplicaState) throws(ReplicaError) -> Void) throws(ReplicaError) {
        var next = state
        try body(&next)
        try store.save(next.encoded())
        state = next
    }

    /// Runs `body` alone among the syncing calls (a sync, the live feed's updates).
    func exclusively<Value>(_ body: () async throws(ReplicaError) -> Value)
        async throws(ReplicaError) -> Value
    {
        while busy {
            await withCheckedContinuation { waitingForTurn.append($0) }
        }
        busy = true
        defer {
            busy = false
            if !waitingForTurn.isEmpty { waitingForTurn.removeFirst().resume() }
        }
        return try await body()
    }
}
