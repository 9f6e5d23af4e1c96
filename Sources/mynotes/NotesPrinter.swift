import CommandLineSupport
import MyNotesKit

/// Prints notes in the format `--format` chose.
struct NotesPrinter {
    var format: OutputFormat

    static let spec = OptionSpec.value(
        "--format", "table|json|xml", "How to print notes (default table).", short: "-f")

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        format = try arguments.choice("--format", as: OutputFormat.self) ?? .table
    }

    func print(_ notes: [Note], client: StyledNotesClient, in context: CommandContext) {
        switch format {
        case .table:
            Pager.write(
                NoteTable(notes: notes).render(
                    width: context.outputWidth, escaping: context.standardOutputIsTerminal,
                    style: context.outputStyle), in: context)
        case .json: context.write(NotesFile.json(notes))
        case .xml:
            context.write(NotesFile.xml(notes, userID: client.email))
        }
    }
}
