import Foundation
import Locking
import MyNotesDomain
import MyNotesTesting
import SQLiteStore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A server process over a database in a folder of its own, an account on it, and the
/// helpers the fault tests share: legacy adds and queries over real sockets, and the
/// store itself opened on the file after the server has gone.
///
/// The fault tests run on ``TestThreads``: they block while processes answer, which would
/// hold a thread of the cooperative pool for minutes, and what follows one of their waits
/// (a kill, a stop) must follow it at once, not when a starved pool next has a thread.
final class FaultRig {
    let folder: URL
    let email = "ann@example.com"
    let token: String
    let databasePath: String
    var location: String { "sqlite:" + databasePath }

    /// Creates the account with `mynotes-server accounts add` in `folder`, made if missing.
    init(folder: URL) throws {
        self.folder = folder
        databasePath = folder.appendingPathComponent("notes.sqlite").path
        let location = "sqlite:" + databasePath
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let added = try CommandRunner.run(
            "mynotes-server", ["accounts", "add", email, "--database", location])
        guard added.status == 0, let token = added.outputLines.last else {
            throw RigFailure("accounts add failed: \(added.standardError)")
        }
        self.token = token
    }

    static func temporaryFolder() -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("mynotes-faults-\(UUID().uuidString)")
    }

    func start(_ arguments: [String] = []) throws -> ServerProcess {
        try ServerProcess(database: location, arguments: arguments)
    }

    /// What came back for a legacy `add`: its ResultCode and ID, or, when no protocol
    /// answer came (the connection failed, the server is gone or answered something
    /// else), what did.
    enum AddOutcome: Equatable, CustomStringConvertible {
        case answered(code: Int, id: String?)
        case noAnswer(String)

        /// The ResultCode, `nil` when there was no answer.
        var code: Int? {
            guard case .answered(let code, _) = self else { return nil }
            return code
        }

        var description: String {
            switch self {
            case .answered(let code, let id): "ResultCode \(code), ID \(id ?? "none")"
            case .noAnswer(let what): "no answer: \(what)"
            }
        }
    }

    /// A legacy `add` posted as a form, and what came of it.
    static func add(
        _ content: String, on client: RawHTTPClient, port: Int, email: String, token: String
    ) -> AddOutcome {
        let body = "action=add&email=\(email)&token=\(token)&date=2026-12-01&content=\(content)"
        let request =
            "POST /mynotes/webservice.php HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
            + "Content-Type: application/x-www-form-urlencoded\r\n"
            + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
        let response: RawHTTPClient.Response
        do {
            response = try client.send(request)
        } catch {
            return .noAnswer("\(error)")
        }
        guard
            let object = try? JSONSerialization.jsonObject(with: Data(response.body))
                as? [String: Any],
            let code = object["ResultCode"] as? Int
        else { return .noAnswer("HTTP \(response.status): \(response.text.prefix(200))") }
        return .answered(code: code, id: object["ID"] as? String)
    }

    /// What came of a legacy `add` of `content` for this rig's account.
    func add(_ content: String, on client: RawHTTPClient, port: Int) -> AddOutcome {
        Self.add(content, on: client, port: port, email: email, token: token)
    }

    /// The contents of the account's notes through a legacy `query`, or the ResultCode
    /// when it is not 0.
    func query(port: Int) throws -> Result<Set<String>, RigFailure> {
        let client = try RawHTTPClient(port: port)
        let response = try client.send(
            "GET /mynotes/webservice.php?action=query&email=\(email)&token=\(token) HTTP/1.1\r\n"
                + "Host: 127.0.0.1:\(port)\r\n\r\n")
        let object = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        guard let object, object["ResultCode"] as? Int == 0 else {
            return .failure(RigFailure("query answered \(response.text.prefix(200))"))
        }
        let records = object["Record"] as? [[String: Any]] ?? []
        return .success(Set(records.compactMap { $0["Content"] as? String }))
    }

    /// What the database file holds once no server has it open: the account's note
    /// contents and SQLite's integrity check.
    func inspect() async throws -> (contents: Set<String>, integrity: [String]) {
        let store = try SQLiteNoteStore(path: databasePath)
        defer { store.close() }
        guard let account = try await store.account(email: email) else {
            throw RigFailure("the account is gone")
        }
        let notes = try await store.notes(account: account.id, page: NotePage(limit: .max))
        return (Set(notes.map(\.content)), try await store.integrityCheck())
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}

struct RigFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Clients adding notes as fast as the server answers, each on its own thread and
/// keep-alive connection, until told to stop or the server goes away. Every content is
/// unique, so each add's fate can be looked up afterwards: acknowledged (ResultCode 0),
/// refused (any other code), or unknown (no answer).
final class AddStream: Sendable {
    struct Outcomes: Sendable {
        var acknowledged: Set<String> = []
        var refused: [String: Int] = [:]
    }

    let acks = EventCounter("an acknowledged add")
    let refusals = EventCounter("a refused add")
    let ended = EventCounter("a writer ended")
    private let outcomes = Lock(Outcomes())
    private let stopping = Atomic(false)
    let writers: Int

    /// `padding` bytes of filler make each note that much bigger.
    init(
        port: Int, email: String, token: String, writers: Int = 2, padding: Int = 0,
        tag: String = "n"
    ) {
        self.writers = writers
        let filler = String(repeating: "x", count: padding)
        for writer in 0..<writers {
            let thread = Thread { [self] in
                defer { ended.signal() }
                var count = 0
                while !stopping.load(ordering: .relaxed),
                    let client = try? RawHTTPClient(port: port, timeoutSeconds: 5)
                {
                    while !stopping.load(ordering: .relaxed) {
                        count += 1
                        let content = "\(tag)\(writer)-\(count)-\(filler)"
                        let outcome = FaultRig.add(
                            content, on: client, port: port, email: email, token: token)
                        // No answer: reconnect, or end if the server is gone.
                        guard let code = outcome.code else { break }
                        if code == 0 {
                            outcomes.withLock { _ = $0.acknowledged.insert(content) }
                            acks.signal()
                        } else {
                            outcomes.withLock { $0.refused[content] = code }
                            refusals.signal()
                        }
                    }
                }
            }
            thread.start()
        }
    }

    /// Asks every writer to stop after its current add, and waits until they have.
    func stop() async throws {
        stopping.store(true, ordering: .relaxed)
        try await ended.wait(for: writers, timeout: .seconds(30))
    }

    var results: Outcomes { outcomes.withLock { $0 } }
}
