import CommandLineSupport
import MyNotesKit
import MyNotesProtocol

/// `mynotes show ID`: one note, its content in full.
struct ShowCommand: ConnectionCommand {
    static let configuration = CommandConfiguration(
        name: "show", abstract: "Show one note in full.", arguments: [ArgumentSpec("ID")],
        options: options)
    private static let options =
        ConnectionOptions.specs + [LocalCopy.offlineSpec, NotesPrinter.spec]

    var id: ReplicaNoteID
    var offline: Bool
    var connection: ConnectionOptions
    var printer: NotesPrinter

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        offline = arguments.has("--offline")
        let text = arguments.argument("ID")
        id = offline ? try LocalCopy.noteID(text) : .server(try NoteArguments.noteID(text))
        connection = try ConnectionOptions(parsing: arguments)
        printer = try NotesPrinter(parsing: arguments)
    }

    func run(in context: CommandContext) async throws(CommandFailure) {
        if offline {
            try await LocalCopy.existing(connection, in: context).show(
                id, printer: printer, in: context)
            return
        }
        let client = try connection.makeClient(in: context)
        let id = self.id.serverID!
        let note = try await calling(in: context.language, server: client.server) {
            () async throws(NotesClientError) in
            try await client.note(id: id)
        }
        if printer.format == .table {
            Self.printInFull(id: String(note.id), note, in: context)
        } else {
            printer.print([note], client: client, in: context)
        }
    }

    /// The note's ID, date and whole content, one under the other.
    static func printInFull(id: String, _ note: Note, in context: CommandContext) {
        let style = context.outputStyle
        context.print(
            style.apply(.heading, to: "ID:") + "      \(id)\n"
                + style.apply(.heading, to: "Date:") + "    \(note.date)\n"
                + style.apply(.heading, to: "Content:") + "\n"
                + context.shown(note.content, keeping: .lineBreaks))
    }
}
