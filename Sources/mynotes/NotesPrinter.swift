import MyNotesKit

/// Prints notes in the format `--format` chose.
struct NotesPrinter {
    var format: OutputFormat

    static let spec = OptionSpec.value(
        "--format", "table|json|xml", "How to print notes (default table).")

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        format = try arguments.choice("--format", as: OutputFormat.self) ?? .table
    }

    func print(_ notes: [Note], client: StyledNotesClient, in context: CommandContext) {
        switch format {
        case .table: context.write(NoteTable(notes: notes).render(width: context.outputWidth))
        case .json: context.write(NotesFile.json(notes))
        case .xml:
            context.write(NotesFile.xml(notes, userID: client.configuration.credentials.email))
        }
    }
}

/// Parses a note ID argument: decimal digits, as the protocol wants.
func parseNoteID(_ text: String) throws(UsageError) -> Int {
    guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let id = Int(text),
        id > 0
    else {
        throw UsageError("ID must be a positive whole number, not '\(text)'")
    }
    return id
}

/// Parses a `--date` value.
func parseNoteDate(_ text: String?) throws(UsageError) -> NoteDate? {
    guard let text else { return nil }
    guard let date = NoteDate(text) else {
        throw UsageError(
            "--date must be yyyy-MM-dd, yyyy-MM-dd HH:mm or yyyy-MM-dd HH:mm:ss, not '\(text)'")
    }
    return date
}

/// Runs a client call, turning its error into the command's.
func calling<Value>(_ body: () async throws(NotesClientError) -> Value) async throws(CommandFailure)
    -> Value
{
    do {
        return try await body()
    } catch {
        throw .client(error)
    }
}
