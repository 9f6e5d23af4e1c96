import CommandLineSupport
import Dispatch
import Foundation
import MyNotesKit
import TextEscaping

/// `mynotes watch`: prints each change to the account's notes as it happens, one line
/// each, until Ctrl-C.
struct WatchCommand: ConnectionCommand {
    static let configuration = CommandConfiguration(
        name: "watch", abstract: "Print each change to the notes as it happens, until Ctrl-C.",
        discussion: discussion, options: options)
    private static let discussion = """
        One line per change: created, updated or deleted, the note's ID, date and text.
        --format json prints JSON lines for scripts: {"cursor", "type", "id", "version",
        "note"}; give a line's cursor to --since to resume after it. Without --since, only
        changes made from now on. A dropped connection is resumed by itself, without
        missing or repeating a change. Ctrl-C ends it with status 0.
        """
    private static let options =
        [
            OptionSpec.value(
                "--format", "text|json", "How to print changes (default text).", short: "-f"),
            OptionSpec.value("--since", "CURSOR", "Start after this cursor (from a JSON line)."),
        ] + ConnectionOptions.specs

    enum Format: String, CaseIterable {
        case text, json
    }

    var format: Format
    var since: ChangeCursor?
    var connection: ConnectionOptions

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        format = try arguments.choice("--format", as: Format.self) ?? .text
        since = try arguments.value("--since").map { text throws(UsageError) in
            guard !text.isEmpty else { throw UsageError("option '--since' must not be empty") }
            return ChangeCursor(text)
        }
        connection = try ConnectionOptions(parsing: arguments)
    }

    func run(in context: CommandContext) async throws(CommandFailure) {
        let resolved = try connection.resolve(in: context)
        guard let token = resolved.token else {
            throw CommandFailure(
                "watch needs the account's token: give --token TOKEN, set MYNOTES_TOKEN, or run "
                    + "'mynotes login'")
        }
        let client = connection.makeAPIClient(server: resolved.server, token: token, in: context)
        let changes = client.changeStream(since: since)
        let format = self.format
        let watching = Task {
            for try await change in changes {
                context.print(Self.line(change, format, escaping: context.standardOutputIsTerminal))
            }
        }
        // Ctrl-C ends the loop, which closes the connection; the command then ends with 0.
        signal(SIGINT, SIG_IGN)
        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        interrupt.setEventHandler { watching.cancel() }
        interrupt.resume()
        defer { interrupt.cancel() }
        if context.standardErrorIsTerminal {
            context.printError("Watching \(resolved.server.absoluteString); Ctrl-C to stop.")
        }
        if case .failure(let error) = await watching.result {
            let failure = error as? NotesClientError ?? .cancelled
            throw CommandFailure(failure, in: context.language, server: resolved.server)
        }
    }

    /// One change as a line: `created  12  2026-12-01 09:00  Buy milk`, or its JSON.
    static func line(_ change: NoteChange, _ format: Format, escaping: Bool) -> String {
        switch format {
        case .json:
            var fields = [
                "\"cursor\":\(JSONText.quoted(change.cursor.rawValue))",
                "\"type\":\"\(change.kind.rawValue)\"", "\"id\":\(change.id)",
                "\"version\":\(change.version)",
            ]
            if let note = change.note {
                fields.append(
                    "\"note\":{\"id\":\(note.id),\"date\":\(JSONText.quoted("\(note.date)")),"
                        + "\"content\":\(JSONText.quoted(note.content))}")
            } else {
                fields.append("\"note\":null")
            }
            return "{" + fields.joined(separator: ",") + "}"
        case .text:
            var line =
                change.kind.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
                + "  \(change.id)"
            if let note = change.note {
                let content =
                    escaping
                    ? TerminalText.escaped(note.content, keeping: .lineBreaks).singleLine
                    : note.content.singleLine
                line += "  \(note.date)  \(content)"
            }
            return line
        }
    }
}
