import CommandLineSupport
import MyNotesKit

/// `mynotes add TEXT`: adds a note; `-` reads the text from standard input.
struct AddCommand: Command {
    static let configuration = CommandConfiguration(
        name: "add", abstract: "Add a note.", discussion: discussion,
        arguments: [ArgumentSpec("TEXT")], options: options)
    private static let discussion = """
        TEXT '-' reads the note from standard input, without its last line break (end
        with an empty line to keep one).
        Put '--' before a TEXT that starts with '-': mynotes add -- "-5 °C tonight"
        """
    private static let options =
        [OptionSpec.value("--date", "DATE", "yyyy-MM-dd[ HH:mm[:ss]] (default now).")]
        + ConnectionOptions.specs + [LocalCopy.offlineSpec, NotesPrinter.spec]

    var text: String
    var date: NoteDate?
    var offline: Bool
    var connection: ConnectionOptions
    var printer: NotesPrinter

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        text = arguments.argument("TEXT")
        date = try NoteArguments.noteDate(arguments.value("--date"))
        offline = arguments.has("--offline")
        connection = try ConnectionOptions(parsing: arguments)
        printer = try NotesPrinter(parsing: arguments)
    }

    func validate() throws(UsageError) {
        try connection.validate()
        if text.isEmpty { throw UsageError("TEXT is empty") }
    }

    func run(in context: CommandContext) async throws(CommandFailure) {
        let date = self.date ?? .now
        if offline {
            let copy = try LocalCopy(connection, in: context)
            let content = try NoteArguments.content(text, for: nil, in: context)
            try await copy.add(content, date: date, printer: printer, in: context)
            return
        }
        let client = try connection.makeClient(in: context)
        let content = try NoteArguments.content(text, for: client, in: context)
        let note = try await calling(in: context.language, server: client.server) {
            () async throws(NotesClientError) in
            try await client.add(content, date: date)
        }
        if printer.format == .table {
            context.print("Added note \(note.id).")
        } else {
            printer.print([note], client: client, in: context)
        }
    }
}
