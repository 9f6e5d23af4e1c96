import CommandLineSupport
import MyNotesKit

/// Parsing of the arguments that name notes and dates.
enum NoteArguments {
    /// Parses a note ID argument: decimal digits, as the protocol wants.
    static func noteID(_ text: String) throws(UsageError) -> Int {
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let id = Int(text),
            id > 0
        else {
            throw UsageError("ID must be a positive whole number, not '\(text)'")
        }
        return id
    }

    /// A note's text as given: `-` reads standard input, without its last line break,
    /// after a prompt on a terminal; the note must fit what `client`'s server accepts
    /// (offline, with no client, the server says so on the next sync).
    static func content(
        _ text: String, for client: StyledNotesClient?, in context: CommandContext
    ) throws(CommandFailure) -> String {
        let content =
            text == "-"
            ? context.readStandardInputValue(
                prompt: "Type the note; end it with Ctrl-D at the start of a line.")
            : text
        if let problem = client?.problem(sending: content) { throw CommandFailure(problem) }
        return content
    }

    /// Parses a `--date` value.
    static func noteDate(_ text: String?) throws(UsageError) -> NoteDate? {
        guard let text else { return nil }
        guard let date = NoteDate(text) else {
            throw UsageError(
                "--date must be yyyy-MM-dd, yyyy-MM-dd HH:mm or yyyy-MM-dd HH:mm:ss, not '\(text)'")
        }
        return date
    }
}
