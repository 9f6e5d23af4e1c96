import CommandLineSupport
import Foundation
import MyNotesKit

/// `mynotes sync`: refreshes the local copy the `--offline` commands work on, and pushes
/// the changes they queued.
struct SyncCommand: ConnectionCommand {
    static let configuration = CommandConfiguration(
        name: "sync", abstract: "Refresh the local copy of the notes and push offline changes.",
        discussion: discussion, options: options)
    private static let discussion = """
        The copy is kept in $XDG_STATE_HOME/mynotes/replicas/ (default ~/.local/state/mynotes),
        one file per server and account; 'mynotes --offline list|search|show|add|edit|rm'
        work on it without the server. Sync speaks the REST API with the account's token.
        A note changed both here and on the server since the last sync is kept twice: the
        server's version, and yours as a new note. Nothing is lost when a sync fails: the
        changes stay queued for the next one.
        """
    private static let options = ConnectionOptions.specs

    var connection: ConnectionOptions

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        connection = try ConnectionOptions(parsing: arguments)
    }

    func run(in context: CommandContext) async throws(CommandFailure) {
        guard try connection.resolve(in: context).token != nil else {
            throw CommandFailure(
                "sync needs the account's token: give --token TOKEN, set MYNOTES_TOKEN, or run "
                    + "'mynotes login'")
        }
        let copy = try LocalCopy(connection, in: context)
        let report: ReplicaSyncReport
        do {
            report = try await copy.replica.sync()
        } catch {
            let waiting = await copy.replica.pendingCount
            let failure = CommandFailure(error, in: context.language, server: copy.server)
            guard waiting > 0 else { throw failure }
            throw CommandFailure(
                failure.message + "\n" + "\(Plural.changes(waiting)) stay queued for the next sync."
            )
        }
        for conflict in report.conflicts { context.print(Self.describe(conflict)) }
        var summary =
            "Synced with \(copy.server.absoluteString): \(Plural.changes(report.pulled)) in, "
            + "\(Plural.changes(report.pushed)) pushed"
        if report.reloaded {
            summary += "; the copy was reloaded in full (the server no longer kept its place)"
        }
        context.print(summary + ". \(Plural.notes(await copy.replica.notes.count)) in the copy.")
    }

    /// What became of a change the server did not take as it was.
    static func describe(_ conflict: ReplicaConflict) -> String {
        let note = conflict.noteID.map { "Note \($0)" } ?? "A note added offline"
        switch (conflict.reason, conflict.local) {
        case (.changedOnServer, nil):
            return "\(note) changed on the server since you removed it: it is kept."
        case (.changedOnServer, _?):
            return "\(note) changed on the server too: both versions are kept, yours as a new note."
        case (.removedOnServer, _):
            return "\(note) was removed on the server: your version is kept as a new note."
        case (.refused(let message), _):
            return
                "\(note): the server refused your change (\(message)); your version is kept in the copy's conflicts."
        }
    }
}
