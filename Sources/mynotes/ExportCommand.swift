import CommandLineSupport
import Foundation
import MyNotesKit

/// `mynotes export`: all notes in the format `import` reads.
struct ExportCommand: ConnectionCommand {
    enum FileFormat: String, CaseIterable {
        case json, xml
    }

    static let configuration = CommandConfiguration(
        name: "export", abstract: "Write all notes as Notes.json or Notes.xml.",
        discussion: discussion, options: options)
    private static let discussion = "Writes to standard output unless --output is given."
    private static let options =
        [
            OptionSpec.value(
                "--format", "json|xml", "The file format (default json).", short: "-f"),
            .value("--output", "FILE", "Write to FILE instead of standard output."),
        ] + ConnectionOptions.specs

    var format: FileFormat
    var output: String?
    var connection: ConnectionOptions

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        format = try arguments.choice("--format", as: FileFormat.self) ?? .json
        output = arguments.value("--output")
        connection = try ConnectionOptions(parsing: arguments)
    }

    func run(in context: CommandContext) async throws(CommandFailure) {
        let client = try connection.makeClient(in: context)
        let notes = try await calling(in: context.language, server: client.server) {
            () async throws(NotesClientError) in
            try await client.query()
        }
        let text =
            switch format {
            case .json: NotesFile.json(notes)
            case .xml: NotesFile.xml(notes, userID: client.email)
            }
        guard let output else {
            context.write(text)
            return
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw CommandFailure("cannot write \(output): \(error.localizedDescription)")
        }
        context.printError("Exported \(notes.count) notes to \(output).")
    }
}
