import CommandLineSupport
import Foundation
import MyNotesKit
import MyNotesProtocol

/// `mynotes import FILE`: uploads the notes of the old app's `Notes.xml` or `Notes.json`.
///
/// Notes go up oldest first, and notes of the same moment one after another in their
/// old order, so the server's newest-first order (by date, then ID) is the file's.
/// An interrupted import resumes where it stopped when run again; see ``ImportJournal``.
struct ImportCommand: ConnectionCommand {
    static let configuration = CommandConfiguration(
        name: "import", abstract: "Upload the notes of a Notes.xml or Notes.json file.",
        discussion: discussion, arguments: [ArgumentSpec("FILE")], options: options)
    private static let discussion = """
        Importing the same file again adds nothing; a changed file adds only the notes
        not imported before. If an import is interrupted, run the same command again: it
        resumes without adding any note twice. Notes that cannot be imported (a bad date,
        a note the server refuses) are listed and skipped, and the command exits 1.
        """
    private static let options =
        [
            OptionSpec.value("--jobs", "N", "Uploads at a time (default 4)."),
            .flag("--again", "Import the notes again even if this file was imported before."),
        ] + ConnectionOptions.specs

    var path: String
    var jobs: Int
    var again: Bool
    var connection: ConnectionOptions

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        path = arguments.argument("FILE")
        jobs = try arguments.integer("--jobs", in: 1...64) ?? 4
        again = arguments.has("--again")
        connection = try ConnectionOptions(parsing: arguments)
    }

    func run(in context: CommandContext) async throws(CommandFailure) {
        let data = try Self.readFile(path)
        let contents = try NotesFile.read(data)
        let entries = contents.entries
        let client = try connection.makeClient(in: context)
        let journal = try ImportJournal(
            server: client.endpoint, email: client.email, data: data, again: again,
            environment: context.environment)
        let total = entries.count + contents.rejected.count
        if journal.history == .finished {
            context.print(
                "Nothing to import: the \(Plural.notes(total)) of \(path) were imported "
                    + "already (--again imports them again).")
            return
        }
        let serverNotes = try await calling(in: context.language, server: client.server) {
            () async throws(NotesClientError) in
            try await client.query()
        }
        let history = journal.history
        journal.begin(existingIDs: serverNotes.map(\.id))
        let already = journal.reconcile(
            entries: entries,
            serverNotes: serverNotes.map { ($0.id, $0.date.description, $0.content) })
        let pending = entries.indices.filter { !journal.isDone($0) }
        let progress = ImportProgress(
            total: total, alreadyDone: already + contents.rejected.count, context: context)
        let interruption = Self.onInterrupt {
            progress.interrupt()
            context.printError("mynotes: interrupted; run the same command again to resume.")
        }
        defer { interruption.cancel() }
        let outcome = await upload(
            pending, of: entries, client: client, journal: journal, progress: progress,
            language: context.language)

        var failures = contents.rejected.map { ($0.position, $0.label, $0.reason) }
        failures += outcome.failures.map { index, reason in
            (entries[index].position, entries[index].label, reason)
        }
        journal.end(finished: outcome.stop == nil && failures.isEmpty)
        if let stop = outcome.stop {
            progress.interrupt()
            throw CommandFailure(
                CommandFailure(stop, in: context.language, server: client.server).message
                    + " Imported \(Plural.notes(outcome.added)) this time; "
                    + "run the same command again to resume.")
        }
        var summary = "Imported \(Plural.notes(outcome.added)) from \(path)"
        if already > 0 {
            summary +=
                history == .interrupted
                ? " (\(already) already imported before the interruption)"
                : " (\(already) already imported by an earlier import)"
        }
        context.print(summary + ".")
        if failures.isEmpty { return }
        for (_, label, reason) in failures.sorted(by: { $0.0 < $1.0 }) {
            context.printError("note \(label): \(reason)")
        }
        throw CommandFailure(
            "\(Plural.notes(failures.count)) could not be imported; fix them in the file and "
                + "import it again (what is in already is not added twice).")
    }

    /// The file's bytes, or why they cannot be read.
    static func readFile(_ path: String) throws(CommandFailure) -> Data {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw CommandFailure("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            throw CommandFailure("cannot read \(path): it is a directory, not a file")
        }
        do {
            return try handle.readToEnd() ?? Data()
        } catch {
            throw CommandFailure("cannot read \(path): \(error.localizedDescription)")
        }
    }

    /// Runs `handler` and exits 130 on Ctrl-C, so that a bar in progress ends its line
    /// and says how to resume; the journal is already up to date, line by line.
    private static func onInterrupt(_ handler: @escaping @Sendable () -> Void)
        -> DispatchSourceSignal
    {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler {
            handler()
            exit(130)
        }
        source.resume()
        return source
    }

    /// Whether the server refused this one note (its content, its date, the quota), so
    /// that the others may still go in; anything else stops the import.
    private static func refusesOnlyThisNote(_ error: NotesClientError) -> Bool {
        switch error {
        case .server(let code, _): return code != .dataAccessFailed
        case .rest(.unprocessable), .rest(.forbidden): return true
        default: return false
        }
    }

    private struct Outcome: Sendable {
        var added = 0
        /// Entries not imported, with the reason in the user's language.
        var failures: [(Int, String)] = []
        var stop: NotesClientError?
    }

    /// Uploads in lanes of same-moment notes, `jobs` lanes at a time; stops taking new
    /// notes at the first failure that is not the server refusing that one note.
    private func upload(
        _ pending: [Int], of entries: [NotesFile.Entry], client: StyledNotesClient,
        journal: ImportJournal, progress: ImportProgress, language: MessageLanguage
    ) async -> Outcome {
        let ordered = pending.sorted { lhs, rhs in
            let (left, right) = (entries[lhs], entries[rhs])
            if left.date != right.date && (left.date < right.date || right.date < left.date) {
                return left.date < right.date
            }
            return (left.sourceID ?? lhs, lhs) < (right.sourceID ?? rhs, rhs)
        }
        var lanes: [[Int]] = []
        for index in ordered {
            if let last = lanes.last?.last, !(entries[last].date < entries[index].date) {
                lanes[lanes.count - 1].append(index)
            } else {
                lanes.append([index])
            }
        }
        let queue = LaneQueue(lanes)
        return await withTaskGroup(of: Outcome.self) { group in
            for _ in 0..<min(jobs, max(1, lanes.count)) {
                group.addTask {
                    var outcome = Outcome()
                    while let lane = queue.next() {
                        for index in lane {
                            let entry = entries[index]
                            if let problem = client.problem(sending: entry.content) {
                                outcome.failures.append((index, problem))
                                progress.advance()
                                continue
                            }
                            do throws(NotesClientError) {
                                let note = try await client.add(entry.content, date: entry.date)
                                journal.record(index: index, id: note.id)
                                outcome.added += 1
                                progress.advance()
                            } catch  where Self.refusesOnlyThisNote(error) {
                                outcome.failures.append((index, error.message(in: language)))
                                progress.advance()
                            } catch {
                                outcome.stop = error
                                queue.stop()
                                return outcome
                            }
                        }
                    }
                    return outcome
                }
            }
            var total = Outcome()
            for await part in group {
                total.added += part.added
                total.failures += part.failures
                total.stop = total.stop ?? part.stop
            }
            return total
        }
    }
}

/// Hands out lanes to upload workers.
private final class LaneQueue: @unchecked Sendable {
    // Guarded by `lock`: every worker takes from here.
    private let lock = NSLock()
    private var lanes: ArraySlice<[Int]>

    init(_ lanes: [[Int]]) {
        self.lanes = lanes[...]
    }

    func next() -> [Int]? {
        lock.withLock { lanes.popFirst() }
    }

    func stop() {
        lock.withLock { lanes = [] }
    }
}
