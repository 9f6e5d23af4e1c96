import CommandLineSupport
import Foundation
import MyNotesKit
import Secrets

/// The local copy of an account's notes that `mynotes sync` refreshes and the `--offline`
/// commands work from: a ``NotesReplica`` in `$XDG_STATE_HOME/mynotes/replicas/`, one file
/// per server and account (named by a hash of both), mode 0600.
struct LocalCopy {
    /// `--offline`, for the commands that can work from the local copy.
    static let offlineSpec = OptionSpec.flag(
        "--offline", "Work on the local copy 'mynotes sync' keeps; changes wait for the next sync."
    ).listed(in: .named("Connection"))

    /// Notes not pushed yet show this ID in `--format json|xml`, which want numbers.
    static let unsyncedID = 0

    let replica: NotesReplica
    let url: URL
    let server: URL
    /// The account's email, for `Notes.xml`; empty when only a token names it.
    let email: String
    /// Whether the file existed before (a copy `mynotes sync` made, or local changes).
    let existed: Bool

    /// The copy for the account the connection options name; the server is contacted only
    /// by ``NotesReplica/sync()``. Conflicts keep both versions: a command line has no one
    /// to ask.
    init(_ connection: ConnectionOptions, in context: CommandContext) throws(CommandFailure) {
        let resolved = try connection.resolve(in: context)
        guard let account = resolved.email ?? resolved.token.map({ "token " + $0 }) else {
            throw CommandFailure(
                "no account: give --email EMAIL, set MYNOTES_EMAIL, or run 'mynotes login'")
        }
        server = resolved.server
        email = resolved.email ?? ""
        let key = SHA256.hex(server.absoluteString + "\u{0}" + account.lowercased())
        url = StateDirectory.url("replicas", environment: context.environment)
            .appendingPathComponent("\(key.prefix(16)).json")
        existed = FileManager.default.fileExists(atPath: url.path)
        let client = connection.makeAPIClient(
            server: resolved.server, token: resolved.token, in: context)
        do {
            replica = try NotesReplica(
                client: client, store: FileReplicaStore(url: url), conflicts: .keepBoth)
        } catch {
            throw CommandFailure(error.message(in: context.language) + " (\(url.path))")
        }
    }

    /// The copy, which reading commands need to exist.
    static func existing(_ connection: ConnectionOptions, in context: CommandContext)
        throws(CommandFailure) -> LocalCopy
    {
        let copy = try LocalCopy(connection, in: context)
        guard copy.existed else {
            throw CommandFailure(
                "there is no local copy of the notes on \(copy.server.absoluteString) yet: "
                    + "run 'mynotes sync' first")
        }
        return copy
    }

    /// The note ID as the user typed it: the server's, or `new-N` for one not synced.
    static func noteID(_ text: String) throws(UsageError) -> ReplicaNoteID {
        guard let id = ReplicaNoteID(text) else {
            throw UsageError(
                "ID must be a note's number, or new-N for a note not synced yet, not '\(text)'")
        }
        return id
    }

    /// Runs a change of the copy, turning its error into the command's.
    @discardableResult
    func changing<Value>(
        in context: CommandContext, _ body: (NotesReplica) async throws(ReplicaError) -> Value
    ) async throws(CommandFailure) -> Value {
        do {
            return try await body(replica)
        } catch {
            throw CommandFailure(error, in: context.language, server: server)
        }
    }

    /// The sentence after a change made offline.
    static let queued = "(offline: pushed by the next 'mynotes sync')"
}
