import Foundation

/// A ``NotesReplica``'s whole state, as its ``ReplicaStore`` keeps it: the notes as the
/// server last had them, the cursor they are current to, the local changes in the order
/// they were made, and the conflicts not resolved. What the app sees is the server's
/// notes with the local changes applied on top (``notes``).
///
/// The rules live here, apart from the network, so they can be checked on their own.
struct ReplicaState: Codable, Sendable, Equatable {
    /// The version of this document's layout.
    static let currentFormat = 1

    /// A note as the server last had it.
    struct ServerCopy: Codable, Sendable, Equatable {
        var date: String
        var content: String
        var etag: String
    }

    /// A local change not pushed yet.
    struct PendingChange: Codable, Sendable, Equatable {
        enum Action: String, Codable, Sendable {
            case add, edit, remove
        }

        /// Its place in the queue, unique in the replica.
        var number: Int
        var target: ReplicaNoteID
        var action: Action
        /// The note's date and content after the change (`add` and `edit`).
        var date: String?
        var content: String?
        /// The server version the change was made on: `If-Match` when it is pushed.
        var baseETag: String?
        /// An add sent at least once whose answer never came: it may be on the server.
        var attempted = false
    }

    struct Conflict: Codable, Sendable, Equatable {
        var number: Int
        /// `nil` for a note added here that the server refused.
        var noteID: Int?
        var localDate: String?
        var localContent: String?
        var server: ServerCopy?
        /// `changed`, `removed`, or the server's message for a refusal.
        var reason: String
        var refusal: String?
    }

    var format = Self.currentFormat
    var cursor: ChangeCursor?
    var server: [Int: ServerCopy] = [:]
    var pending: [PendingChange] = []
    var conflicts: [Conflict] = []
    var nextLocal = 1
    var nextNumber = 1

    init() {}

    // MARK: - Reading and writing the document

    static func decode(_ data: Data) throws(ReplicaError) -> ReplicaState {
        struct Format: Decodable { var format: Int }
        guard let format = try? JSONDecoder().decode(Format.self, from: data) else {
            throw .unreadableState("it is not a replica's state")
        }
        guard format.format == currentFormat else {
            throw .unreadableState("layout \(format.format); this SDK reads \(currentFormat)")
        }
        do {
            return try JSONDecoder().decode(ReplicaState.self, from: data)
        } catch {
            throw .unreadableState(String(describing: error))
        }
    }

    func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Every field is a string, number, Bool, array or dictionary: encoding cannot fail.
        return try! encoder.encode(self)
    }

    // MARK: - The notes as the app sees them

    /// Every note, the newest first: notes added here (not pushed yet), then the
    /// server's by descending ID; local changes applied.
    var notes: [ReplicaNote] {
        var shown: [ReplicaNoteID: ReplicaNote] = [:]
        for (id, copy) in server {
            shown[.server(id)] = Self.note(.server(id), copy.date, copy.content, pending: false)
        }
        for change in pending {
            switch change.action {
            case .add, .edit:
                shown[change.target] = Self.note(
                    change.target, change.date ?? "", change.content ?? "", pending: true)
            case .remove:
                shown[change.target] = nil
            }
        }
        return shown.values.sorted { Self.isNewer($0.id, than: $1.id) }
    }

    func note(_ id: ReplicaNoteID) -> ReplicaNote? {
        var shown = server[id.serverID ?? 0].flatMap { copy in
            id.serverID == nil ? nil : Self.note(id, copy.date, copy.content, pending: false)
        }
        for change in pending where change.target == id {
            switch change.action {
            case .add, .edit:
                shown = Self.note(id, change.date ?? "", change.content ?? "", pending: true)
            case .remove: shown = nil
            }
        }
        return shown
    }

    var publicConflicts: [ReplicaConflict] {
        conflicts.map(Self.publicConflict)
    }

    static func publicConflict(_ conflict: Conflict) -> ReplicaConflict {
        let id = conflict.noteID.map(ReplicaNoteID.server) ?? .local(conflict.number)
        let local = conflict.localContent.map {
            note(id, conflict.localDate ?? "", $0, pending: true)
        }
        let server = conflict.server.map { note(id, $0.date, $0.content, pending: false) }
        let reason: ReplicaConflict.Reason =
            switch conflict.reason {
            case "changed": .changedOnServer
            case "removed": .removedOnServer
            default: .refused(conflict.refusal ?? "")
            }
        return ReplicaConflict(
            id: conflict.number, noteID: conflict.noteID, local: local, server: server,
            reason: reason)
    }

    private static func note(_ id: ReplicaNoteID, _ date: String, _ content: String, pending: Bool)
        -> ReplicaNote
    {
        ReplicaNote(
            id: id, date: NoteDate(date) ?? NoteDate(year: 1970, month: 1, day: 1)!,
            content: content, isPending: pending)
    }

    private static func isNewer(_ lhs: ReplicaNoteID, than rhs: ReplicaNoteID) -> Bool {
        switch (lhs, rhs) {
        case (.local(let a), .local(let b)), (.server(let a), .server(let b)): return a > b
        case (.local, .server): return true
        case (.server, .local): return false
        }
    }

    // MARK: - Local changes

    /// Queues a new note; its local ID.
    mutating func add(date: NoteDate, content: String) -> ReplicaNoteID {
        let id = ReplicaNoteID.local(nextLocal)
        nextLocal += 1
        enqueue(
            PendingChange(number: 0, target: id, action: .add, date: "\(date)", content: content))
        return id
    }

    /// Queues a change of a note's date, content or both; what is `nil` is kept. A
    /// change waiting for the same note absorbs it, unless it is being pushed (`inFlight`).
    mutating func edit(_ id: ReplicaNoteID, date: NoteDate?, content: String?, inFlight: Int?)
        throws(ReplicaError)
    {
        guard let current = note(id) else { throw .noSuchNote(id) }
        let newDate = date.map { "\($0)" } ?? "\(current.date)"
        let newContent = content ?? current.content
        if let index = waiting(for: id, inFlight: inFlight) {
            pending[index].date = newDate
            pending[index].content = newContent
            return
        }
        enqueue(
            PendingChange(
                number: 0, target: id, action: .edit, date: newDate, content: newContent,
                baseETag: id.serverID.flatMap { server[$0]?.etag }))
    }

    /// Queues a removal. A note added here and not sent yet simply goes.
    mutating func remove(_ id: ReplicaNoteID, inFlight: Int?) throws(ReplicaError) {
        guard note(id) != nil else { throw .noSuchNote(id) }
        if let index = waiting(for: id, inFlight: inFlight) {
            if pending[index].action == .add {
                pending.remove(at: index)
                return
            }
            pending[index].action = .remove
            pending[index].date = nil
            pending[index].content = nil
            return
        }
        enqueue(
            PendingChange(
                number: 0, target: id, action: .remove,
                baseETag: id.serverID.flatMap { server[$0]?.etag }))
    }

    /// The queued change of `id` that a new one may merge into: not the one in flight.
    private func waiting(for id: ReplicaNoteID, inFlight: Int?) -> Int? {
        pending.lastIndex { $0.target == id && $0.number != inFlight }
    }

    private mutating func enqueue(_ change: PendingChange) {
        var change = change
        change.number = nextNumber
        nextNumber += 1
        pending.append(change)
    }

    // MARK: - What the server says

    /// Takes a change from the feed into the server's copy.
    mutating func apply(_ change: NoteChange) {
        if let note = change.note {
            server[change.id] = ServerCopy(
                date: "\(note.date)", content: note.content, etag: change.etag)
        } else {
            server[change.id] = nil
        }
    }

    static func copy(of note: VersionedNote) -> ServerCopy {
        ServerCopy(date: "\(note.date)", content: note.content, etag: note.etag ?? "")
    }

    /// After a pushed change: later changes of the same note build on the new version,
    /// and those of a note added here use its server ID.
    mutating func pushed(_ change: PendingChange, as note: VersionedNote?) {
        pending.removeAll { $0.number == change.number }
        guard let note else {
            if let id = change.target.serverID { server[id] = nil }
            return
        }
        server[note.id] = Self.copy(of: note)
        for index in pending.indices where pending[index].target == change.target {
            pending[index].target = .server(note.id)
            pending[index].baseETag = note.etag
        }
    }

    /// Keeps a change the server did not take as a conflict, and drops it from the queue.
    mutating func hold(
        _ change: PendingChange, server current: VersionedNote?, reason: ReplicaConflict.Reason
    ) -> ReplicaConflict? {
        var change = change
        if change.action == .add {
            // The later changes of a note the server never got are folded into this one.
            guard let latest = note(change.target) else {
                pending.removeAll { $0.target == change.target }
                return nil
            }
            change.date = "\(latest.date)"
            change.content = latest.content
            pending.removeAll { $0.target == change.target }
        }
        pending.removeAll { $0.number == change.number }
        let id = change.target.serverID
        if let current {
            server[current.id] = Self.copy(of: current)
        } else if case .removedOnServer = reason, let id {
            server[id] = nil
        }
        var refusal: String?
        let reasonText: String
        switch reason {
        case .changedOnServer: reasonText = "changed"
        case .removedOnServer: reasonText = "removed"
        case .refused(let message):
            reasonText = "refused"
            refusal = message
        }
        let conflict = Conflict(
            number: change.number, noteID: id, localDate: change.date,
            localContent: change.action == .remove ? nil : change.content,
            server: current.map(Self.copy), reason: reasonText, refusal: refusal)
        conflicts.append(conflict)
        return Self.publicConflict(conflict)
    }

    /// Ends a conflict the way the app chose, queueing what that takes.
    mutating func resolve(_ number: Int, keeping resolution: ReplicaConflict.Resolution)
        throws(ReplicaError)
    {
        guard let index = conflicts.firstIndex(where: { $0.number == number }) else {
            throw .noSuchConflict(number)
        }
        let conflict = conflicts.remove(at: index)
        guard resolution != .server, let content = conflict.localContent else {
            if resolution == .local, conflict.localContent == nil, let copy = conflict.server,
                let id = conflict.noteID
            {
                enqueue(
                    PendingChange(
                        number: 0, target: .server(id), action: .remove,
                        baseETag: copy.etag))
            }
            return
        }
        let date = conflict.localDate ?? "\(NoteDate.now)"
        if resolution == .local, let copy = conflict.server, let id = conflict.noteID {
            enqueue(
                PendingChange(
                    number: 0, target: .server(id), action: .edit, date: date,
                    content: content, baseETag: copy.etag))
        } else {
            let id = ReplicaNoteID.local(nextLocal)
            nextLocal += 1
            enqueue(
                PendingChange(number: 0, target: id, action: .add, date: date, content: content))
        }
    }
}
