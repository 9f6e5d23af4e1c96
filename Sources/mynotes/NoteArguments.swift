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
