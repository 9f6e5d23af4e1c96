extension NotesReplica {
    /// Brings the replica up to date and pushes its local changes: pulls the changes
    /// since its cursor (all notes again if the cursor expired, local changes kept),
    /// pushes the queue in order, then pulls what the pushes changed.
    ///
    /// ```swift
    /// do {
    ///     let report = try await replica.sync()
    ///     if !report.conflicts.isEmpty { showConflicts(report.conflicts) }
    /// } catch .client(let error) {
    ///     print("offline?", error.message(in: .english))   // changes stay queued
    /// }
    /// ```
    /// Syncs never overlap: a second call waits for the first.
    @discardableResult
    public func sync() async throws(ReplicaError) -> ReplicaSyncReport {
        try await exclusively { () async throws(ReplicaError) in
            var report = ReplicaSyncReport()
            try await pull(into: &report)
            if try await push(into: &report) > 0 { try await pull(into: &report) }
            report.pending = state.pending.count
            return report
        }
    }

    /// Keeps the replica current for as long as the task runs: a ``sync()``, then every
    /// change from the server as it happens (``NotesAPIClient/changeStream(since:reconnection:)``),
    /// reconnecting by itself. Local changes still wait for a ``sync()``.
    ///
    /// ```swift
    /// let live = Task { try await replica.follow() }
    /// // …
    /// live.cancel()
    /// ```
    /// - Throws: what reconnecting cannot fix (e.g. a token no longer valid); returns when
    ///   the task is cancelled.
    public func follow(reconnection: ChangeStream.Reconnection = .standard)
        async throws(ReplicaError)
    {
        while !Task.isCancelled {
            try await sync()
            var changes = client.changeStream(since: state.cursor, reconnection: reconnection)
                .makeAsyncIterator()
            while true {
                let next: NoteChange?
                do {
                    next = try await changes.next()
                } catch .rest(.cursorExpired) {
                    break
                } catch {
                    throw .client(error)
                }
                guard let change = next else { return }
                try await exclusively { () async throws(ReplicaError) in
                    try self.change { state in
                        state.apply(change)
                        state.cursor = change.cursor
                    }
                    announce(change.id)
                }
            }
        }
    }

    /// Takes the feed from the cursor on; from the start, replacing the server's notes,
    /// when there is no cursor or it expired.
    private func pull(into report: inout ReplicaSyncReport) async throws(ReplicaError) {
        var cursor = state.cursor
        var full: [Int: ReplicaState.ServerCopy]? = cursor == nil ? [:] : nil
        while true {
            let page: ChangePage
            do {
                page = try await client.changes(since: cursor, limit: 500)
            } catch .rest(.cursorExpired) where full == nil {
                cursor = nil
                full = [:]
                continue
            } catch {
                throw .client(error)
            }
            report.pulled += page.changes.count
            if full != nil {
                var listing = ReplicaState()
                listing.server = full!
                for change in page.changes { listing.apply(change) }
                full = listing.server
            } else {
                try change { state in
                    for change in page.changes { state.apply(change) }
                    state.cursor = page.cursor
                }
                for change in page.changes { announce(change.id) }
            }
            cursor = page.cursor
            guard page.hasMore else { break }
        }
        if let full {
            let hadCursor = state.cursor != nil
            try change { state in
                state.server = full
                state.cursor = cursor
            }
            if hadCursor {
                report.reloaded = true
                emit(.reloaded)
            } else {
                for note in state.notes { emit(.changed(note)) }
            }
        }
    }

    /// Pushes the queue in order; stops at a failure a later sync may not have (the
    /// network, the server's store), leaving the rest queued. Returns how many it pushed.
    private func push(into report: inout ReplicaSyncReport) async throws(ReplicaError) -> Int {
        var pushed = 0
        while var next = state.pending.first {
            inFlight = next.number
            defer { inFlight = nil }
            if next.action == .add {
                if next.attempted, let adopted = adoptable(next) {
                    try finish(next, as: adopted)
                    pushed += 1
                    continue
                }
                // Marked before sending: if the answer is lost, the next sync looks for
                // the note on the server before adding it again.
                next.attempted = true
                try mark(next, attempted: true)
            }
            let outcome = await send(next)
            switch outcome {
            case .success(let note):
                try finish(next, as: note)
                pushed += 1
            case .failure(.rest(.notFound)) where next.action == .remove:
                try finish(next, as: nil)
                pushed += 1
            case .failure(.rest(.notFound)):
                try conflict(next, server: nil, .removedOnServer, into: &report)
            case .failure(.rest(.editConflict(_, let current))):
                try conflict(
                    next, server: current, current == nil ? .removedOnServer : .changedOnServer,
                    into: &report)
            case .failure(let error)
            where RetryPolicy.isTransient(error) || Self.stopsTheQueue(error):
                if case .transport(.cannotConnect) = error, next.action == .add {
                    // Never sent: the next sync adds it without looking for it first.
                    try mark(next, attempted: false)
                }
                throw .client(error)
            case .failure(let error):
                try conflict(
                    next, server: nil, .refused(error.message(in: client.configuration.language)),
                    into: &report)
            }
        }
        report.pushed += pushed
        return pushed
    }

    private func mark(_ change: ReplicaState.PendingChange, attempted: Bool) throws(ReplicaError) {
        try self.change { state in
            if let index = state.pending.firstIndex(where: { $0.number == change.number }) {
                state.pending[index].attempted = attempted
            }
        }
    }

    /// Failures that are about the client, not the change: no change can go through.
    private static func stopsTheQueue(_ error: NotesClientError) -> Bool {
        switch error {
        case .rest(.unauthorized), .cancelled, .invalidConfiguration, .invalidResponse: return true
        case .http(let status, _): return status == 404 || status == 401
        default: return false
        }
    }

    private func send(_ change: ReplicaState.PendingChange) async -> Result<
        VersionedNote?, NotesClientError
    > {
        let date = change.date.flatMap { NoteDate($0) } ?? .now
        do {
            switch (change.action, change.target) {
            case (.add, _):
                return .success(try await client.create(change.content ?? "", date: date))
            case (.edit, .server(let id)):
                return .success(
                    try await client.replace(
                        id: id, content: change.content ?? "", date: date,
                        ifMatch: change.baseETag ?? "*"))
            case (.remove, .server(let id)):
                try await client.delete(id: id, ifMatch: change.baseETag ?? "*")
                return .success(nil)
            case (.edit, .local), (.remove, .local):
                // Its add was refused and held as a conflict, which took this change in.
                return .failure(
                    .rest(
                        .notFound(
                            ProblemDetails(
                                title: "Not Found", status: 404, code: -7, detail: ""))))
            }
        } catch {
            return .failure(error)
        }
    }

    /// A note already on the server that an add whose answer was lost had created: the
    /// same date and content, and no other note of this replica.
    private func adoptable(_ change: ReplicaState.PendingChange) -> VersionedNote? {
        guard let content = change.content, let date = change.date else { return nil }
        let claimed = Set(state.conflicts.compactMap(\.noteID))
        guard
            let (id, copy) = state.server.filter({
                $0.value.content == content && $0.value.date == date && !claimed.contains($0.key)
            }).max(by: { $0.key < $1.key }),
            let noteDate = NoteDate(copy.date)
        else { return nil }
        return VersionedNote(
            note: Note(id: id, date: noteDate, content: copy.content), createdAt: .distantPast,
            updatedAt: .distantPast, etag: copy.etag)
    }

    private func finish(_ change: ReplicaState.PendingChange, as note: VersionedNote?)
        throws(ReplicaError)
    {
        try self.change { state in state.pushed(change, as: note) }
        if let note, case .local = change.target, let shown = state.note(.server(note.id)) {
            emit(.identified(change.target, as: shown))
        } else if let id = note.map({ ReplicaNoteID.server($0.id) }), let shown = state.note(id) {
            emit(.changed(shown))
        }
    }

    private func conflict(
        _ change: ReplicaState.PendingChange, server current: VersionedNote?,
        _ reason: ReplicaConflict.Reason, into report: inout ReplicaSyncReport
    ) throws(ReplicaError) {
        var held: ReplicaConflict?
        try self.change { state in held = state.hold(change, server: current, reason: reason) }
        guard let held else { return }
        report.conflicts.append(held)
        emit(.conflict(held))
        if let id = held.noteID { announce(id) } else { emit(.removed(change.target)) }
        guard policy == .keepBoth else { return }
        if case .refused = reason { return }
        try resolve(held.id, keeping: .both)
    }

    /// Tells the subscribers how note `id` now shows.
    func announce(_ id: Int) {
        if let note = state.note(.server(id)) {
            emit(.changed(note))
        } else {
            emit(.removed(.server(id)))
        }
    }
}
