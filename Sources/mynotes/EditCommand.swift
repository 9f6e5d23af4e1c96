import CommandLineSupport
import MyNotesKit

/// `mynotes edit ID TEXT`: replaces a note's text, keeping its date unless `--date` is given.
struct EditCommand: Command {
    static let configuration = CommandConfiguration(
        name: "edit", abstract: "Replace a note's text.", discussion: discussion,
        arguments: [ArgumentSpec("ID"), ArgumentSpec("TEXT")], options: options)
    private static let discussion =
        "The note keeps its date unless --date is given. TEXT '-' reads standard input."
    private static let options =
        [OptionSpec.value("--date", "DATE", "A new date, yyyy-MM-dd[ HH:mm[:ss]].")]
        + ConnectionOptions.specs

    var id: Int
    var text: String
    var date: NoteDate?
    var connection: ConnectionOptions

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        id = try NoteArguments.noteID(arguments.argument("ID"))
        text = arguments.argument("TEXT")
        date = try NoteArguments.noteDate(arguments.value("--date"))
        connection = try ConnectionOptions(parsing: arguments)
    }

    func validate() throws(UsageError) {
        try connection.validate()
        if text.isEmpty { throw UsageError("TEXT is empty") }
    }

    func run(in context: CommandContext) async throws(CommandFailure) {
        let client = try connection.makeClient(in: context)
        let content = text == "-" ? context.readStandardInput() : text
        let date = self.date
        try await calling(in: context.language) { () async throws(NotesClientError) in
            try await client.edit(id: id, content: content, date: date)
        }
        context.print("Updated note \(id).")
    }
}
