import MyNotesKit
import MyNotesProtocol

/// `mynotes show ID`: one note, its content in full.
struct ShowCommand: ConnectionCommand {
    static let name = "show"
    static let summary = "Show one note in full."
    static let arguments = "ID"
    static let options = ConnectionOptions.specs + [NotesPrinter.spec]

    var id: Int
    var connection: ConnectionOptions
    var printer: NotesPrinter

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.count == 1 else {
            throw UsageError(arguments.positionals.isEmpty ? "missing ID" : "expected one ID")
        }
        id = try NoteArguments.noteID(arguments.positionals[0])
        connection = try ConnectionOptions(parsing: arguments)
        printer = try NotesPrinter(parsing: arguments)
    }

    func run(in context: CommandContext) async throws(CommandFailure) {
        let client = try connection.makeClient(in: context)
        let note = try await calling { () async throws(NotesClientError) in
            try await client.note(id: id)
        }
        if printer.format == .table {
            context.print("ID:      \(note.id)\nDate:    \(note.date)\nContent:\n\(note.content)")
        } else {
            printer.print([note], client: client, in: context)
        }
    }
}
