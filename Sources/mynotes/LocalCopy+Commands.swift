import CommandLineSupport
import MyNotesKit

/// What `list`, `search`, `show`, `add`, `edit` and `rm` do with `--offline`: the same,
/// on the local copy, changes queued for the next `mynotes sync`.
extension LocalCopy {
    func list(limit: Int?, printer: NotesPrinter, in context: CommandContext) async {
        var notes = await replica.notes
        if let limit { notes = Array(notes.prefix(limit)) }
        print(notes, printer, in: context)
    }

    func search(_ words: [String], printer: NotesPrinter, in context: CommandContext) async {
        let found = await replica.notes.filter { NoteSearch.matches($0.content, allOf: words) }
        print(found, printer, in: context)
    }

    func show(_ id: ReplicaNoteID, printer: NotesPrinter, in context: CommandContext)
        async throws(CommandFailure)
    {
        guard let note = await replica.note(id) else {
            throw CommandFailure(ReplicaError.noSuchNote(id), in: context.language, server: server)
        }
        if printer.format == .table {
            ShowCommand.printInFull(id: id.description, note.printable, in: context)
        } else {
            print([note], printer, in: context)
        }
    }

    func add(_ content: String, date: NoteDate, printer: NotesPrinter, in context: CommandContext)
        async throws(CommandFailure)
    {
        let note = try await changing(in: context) { replica throws(ReplicaError) in
            try await replica.add(content, date: date)
        }
        if printer.format == .table {
            context.print("Added note \(note.id) \(Self.queued).")
        } else {
            print([note], printer, in: context)
        }
    }

    func edit(
        _ id: ReplicaNoteID, content: String?, date: NoteDate?, in context: CommandContext
    ) async throws(CommandFailure) {
        try await changing(in: context) { replica throws(ReplicaError) in
            try await replica.edit(id, content: content, date: date)
        }
        context.print("Updated note \(id) \(Self.queued).")
    }

    /// Removes each note on its own, as `rm` does online.
    func remove(_ ids: [ReplicaNoteID], in context: CommandContext) async throws(CommandFailure) {
        try await RemoveCommand.removeEach(ids, in: context) { id throws(CommandFailure) in
            try await changing(in: context) { replica throws(ReplicaError) in
                try await replica.remove(id)
            }
            return "Removed note \(id) \(Self.queued)."
        }
    }

    private func print(_ notes: [ReplicaNote], _ printer: NotesPrinter, in context: CommandContext)
    {
        printer.print(
            notes.map(\.printable), ids: notes.map(\.id.description), email: email, in: context)
    }
}
