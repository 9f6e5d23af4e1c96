import CommandLineSupport
import MyNotesKit

/// `mynotes edit ID [TEXT] [--date D]`: changes a note's text, its date, or both.
struct EditCommand: Command {
    static let configuration = CommandConfiguration(
        name: "edit", abstract: "Change a note's text, its date, or both.",
        discussion: discussion, arguments: [ArgumentSpec("ID"), .optional("TEXT")],
        options: options)
    private static let discussion = """
        What is not given is kept: 'mynotes edit 12 --date 2026-11-02' moves note 12 and
        keeps its text. TEXT '-' reads standard input (its last line break dropped).
        """
    private static let options =
        [OptionSpec.value("--date", "DATE", "A new date, yyyy-MM-dd[ HH:mm[:ss]].")]
        + ConnectionOptions.specs + [LocalCopy.offlineSpec]

    var id: ReplicaNoteID
    var offline: Bool
    var text: String?
    var date: NoteDate?
    var connection: ConnectionOptions

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        offline = arguments.has("--offline")
        let idText = arguments.argument("ID")
        id = offline ? try LocalCopy.noteID(idText) : .server(try NoteArguments.noteID(idText))
        text = arguments.optionalArgument("TEXT")
        date = try NoteArguments.noteDate(arguments.value("--date"))
        connection = try ConnectionOptions(parsing: arguments)
    }

    func validate() throws(UsageError) {
        try connection.validate()
        if text == nil, date == nil { throw UsageError("nothing to change: give TEXT or --date") }
        if text?.isEmpty == true { throw UsageError("TEXT is empty") }
    }

    func run(in context: CommandContext) async throws(CommandFailure) {
        let date = self.date
        if offline {
            let copy = try LocalCopy.existing(connection, in: context)
            let content = try text.map { text throws(CommandFailure) in
                try NoteArguments.content(text, for: nil, in: context)
            }
            try await copy.edit(id, content: content, date: date, in: context)
            return
        }
        let client = try connection.makeClient(in: context)
        let content = try text.map { text throws(CommandFailure) in
            try NoteArguments.content(text, for: client, in: context)
        }
        let id = self.id.serverID!
        try await calling(in: context.language, server: client.server) {
            () async throws(NotesClientError) in
            try await client.edit(id: id, content: content, date: date)
        }
        context.print("Updated note \(id).")
    }
}
