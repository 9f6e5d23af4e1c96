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
        If the import is interrupted, run the same command again: it resumes without
        adding any note twice. Notes the server refuses are listed and skipped.
        """
    private static let options =
        [OptionSpec.value("--jobs", "N", "Uploads at a time (default 4).")]
        + ConnectionOptions.specs

    var path: String
    var jobs: Int
    var connection: ConnectionOptions

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        path = arguments.argument("FILE")
        jobs = try arguments.integer("--jobs", in: 1...64) ?? 4
        connection = try ConnectionOptions(parsing: arguments)
    }

    func run(in context: CommandContext) async throws(CommandFailure) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure("cannot read \(path)")
        }
        let entries = try NotesFile.read(data)
        let client = try connection.makeClient(in: context)
        let journal = try ImportJournal(
            server: client.endpoint, email: client.email, data: data,
            environment: context.environment)
        let serverNotes = try await calling(in: context.language) {
            () async throws(NotesClientError) in
            try await client.query()
        }
        var resumed = 0
        if journal.isResuming {
            resumed = journal.reconcile(
                entries: entries,
                serverNotes: serverNotes.map { ($0.id, $0.date.description, $0.content) })
            resumed = entries.indices.filter { journal.isDone($0) }.count
        } else {
            journal.begin(existingIDs: serverNotes.map(\.id))
        }
        let pending = entries.indices.filter { !journal.isDone($0) }
        let progress = ImportProgress(total: entries.count, alreadyDone: resumed, context: context)
        let interruption = Self.onInterrupt {
            progress.interrupt()
            context.printError("mynotes: interrupted; run the same command again to resume.")
        }
        defer { interruption.cancel() }
        let outcome = await upload(
            pending, of: entries, client: client, journal: journal, progress: progress)

        if let stop = outcome.stop {
            progress.interrupt()
            throw CommandFailure(
                "\(stop.message(in: context.language)) Imported \(outcome.added) notes this time; "
                    + "run the same command again to resume.")
        }
        var summary = "Imported \(outcome.added) notes from \(path)"
        if resumed > 0 { summary += " (\(resumed) already imported before the interruption)" }
        context.print(summary + ".")
        if outcome.failures.isEmpty {
            journal.finish()
            return
        }
        for (index, error) in outcome.failures.sorted(by: { $0.0 < $1.0 }) {
            let source = entries[index].sourceID.map { "ID \($0)" } ?? "#\(index + 1)"
            context.printError("note \(source): \(error.message(in: context.language))")
        }
        throw CommandFailure("\(outcome.failures.count) notes were not imported.")
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

    private struct Outcome: Sendable {
        var added = 0
        var failures: [(Int, NotesClientError)] = []
        var stop: NotesClientError?
    }

    /// Uploads in lanes of same-moment notes, `jobs` lanes at a time; stops taking new
    /// notes at the first failure that is not the server refusing that one note.
    private func upload(
        _ pending: [Int], of entries: [NotesFile.Entry], client: StyledNotesClient,
        journal: ImportJournal, progress: ImportProgress
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
                            do throws(NotesClientError) {
                                let note = try await client.add(entry.content, date: entry.date)
                                journal.record(index: index, id: note.id)
                                outcome.added += 1
                                progress.advance()
                            } catch .server(let code, let message) where code != .dataAccessFailed {
                                outcome.failures.append(
                                    (index, .server(code, serverMessage: message)))
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
