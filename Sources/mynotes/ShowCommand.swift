import CommandLineSupport
import MyNotesKit
import MyNotesProtocol

/// `mynotes show ID`: one note, its content in full.
struct ShowCommand: ConnectionCommand {
    static let configuration = CommandConfiguration(
        name: "show", abstract: "Show one note in full.", arguments: [ArgumentSpec("ID")],
        options: options)
    private static let options = ConnectionOptions.specs + [NotesPrinter.spec]

    var id: Int
    var connection: ConnectionOptions
    var printer: NotesPrinter

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        id = try NoteArguments.noteID(arguments.argument("ID"))
        connection = try ConnectionOptions(parsing: arguments)
        printer = try NotesPrinter(parsing: arguments)
    }

    func run(in context: CommandContext) async throws(CommandFailure) {
        let client = try connection.makeClient(in: context)
        let note = try await calling(in: context.language, server: client.server) {
            () async throws(NotesClientError) in
            try await client.note(id: id)
        }
        if printer.format == .table {
            let style = context.outputStyle
            context.print(
                style.apply(.heading, to: "ID:") + "      \(note.id)\n"
                    + style.apply(.heading, to: "Date:") + "    \(note.date)\n"
                    + style.apply(.heading, to: "Content:") + "\n"
                    + context.shown(note.content, keeping: .lineBreaks))
        } else {
            printer.print([note], client: client, in: context)
        }
    }
}
