import Foundation
import MyNotesKit
import MyNotesService
import MyNotesTesting
import Testing

import struct MyNotesDomain.SignInLimits

/// NotesAPIClient against the real server's REST API v1 over real HTTP, every call in
/// every calling style.
@Suite("NotesAPIClient against the real server")
struct NotesAPIClientIntegrationTests {
    static let server = try! TestServer(.init(auth: .token))
    static let password = "correct horse battery"

    static func api(
        token: String? = nil, language: MessageLanguage = .english, on server: TestServer = server
    ) -> NotesAPIClient {
        var configuration = NotesAPIClient.Configuration(
            server: server.baseURL, token: token, language: language)
        // Generous: password hashing (PBKDF2, 600,000 rounds) is slow on a busy machine.
        configuration.timeout = .seconds(30)
        return NotesAPIClient(configuration)
    }

    static func email() -> String { "rest-\(UUID().uuidString)@example.com" }

    /// A client acting for a new account (made with a token, not a password: fast).
    static func account() throws -> NotesAPIClient {
        api(token: try server.createAccount(email: email()))
    }

    @Test(
        "Sign up, sign in, sign out: tokens that work, then do not",
        arguments: CallingStyle.allCases)
    func sessions(style: CallingStyle) async throws {
        let email = Self.email()
        let first = try await style.signUp(Self.api(), email, Self.password)
        #expect(first.email == email)
        let second = try await style.signIn(Self.api(), email, Self.password)
        #expect(second.token != first.token)

        // Both tokens work, also with the legacy protocol
        let signedIn = Self.api(token: second.token)
        #expect(try await style.notes(signedIn).notes.isEmpty)
        let legacy = NotesClient(
            server: Self.server.baseURL, credentials: .token(email: email, token: first.token))
        #expect(try await legacy.query() == [])

        // Signing out revokes only the token used
        try await style.signOut(signedIn)
        let error = await TransportFailureTests.failure { () async throws(NotesClientError) in
            try await style.notes(signedIn)
        }
        guard case .rest(.unauthorized(let problem)) = error else {
            Issue.record("expected 401, got \(String(describing: error))")
            return
        }
        #expect(problem.status == 401)
        #expect(problem.code == -9)
        #expect(error?.resultCode == .authenticationFailed)
        #expect(try await style.notes(Self.api(token: first.token)).notes.isEmpty)
    }

    @Test("Create, get, replace, patch, delete, with ETags", arguments: CallingStyle.allCases)
    func lifecycle(style: CallingStyle) async throws {
        let api = try Self.account()
        let content = NotesClientIntegrationTests.hardContent
        let created = try await style.create(api, content, date: NoteDate("2026-11-29 08:30"))
        #expect(created.content == content)
        #expect(created.date.description == "2026-11-29 08:30:00")
        #expect(created.etag != nil)
        #expect(created.createdAt == created.updatedAt)

        let fetched = try await style.note(api, id: created.id)
        #expect(fetched == created)

        let replaced = try await style.replace(
            api, id: created.id, content: "+%26&=", date: NoteDate("2027-01-01"),
            ifMatch: fetched.etag)
        #expect(
            replaced.note == Note(id: created.id, date: NoteDate("2027-01-01"), content: "+%26&="))
        #expect(replaced.etag != created.etag)

        let patched = try await style.update(api, id: created.id, content: "only the text")
        #expect(patched.date == replaced.date)
        #expect(patched.content == "only the text")
        let redated = try await style.update(
            api, id: created.id, date: NoteDate("2027-02-02 10:00"), ifMatch: patched.etag)
        #expect(redated.content == "only the text")
        #expect(redated.date.description == "2027-02-02 10:00:00")

        try await style.delete(api, id: created.id, ifMatch: redated.etag)
        let gone = await TransportFailureTests.failure { () async throws(NotesClientError) in
            try await style.note(api, id: created.id)
        }
        guard case .rest(.notFound(let problem)) = gone else {
            Issue.record("expected 404, got \(String(describing: gone))")
            return
        }
        #expect(problem.code == -7)
        #expect(gone?.message(in: .english) == "No such note.")
    }

    @Test("A stale ETag: 412 carrying the note as it now is", arguments: CallingStyle.allCases)
    func conflict(style: CallingStyle) async throws {
        let api = try Self.account()
        let mine = try await style.create(api, "v1", date: NoteDate("2026-11-29"))
        // Someone else changes the note
        let theirs = try await api.update(id: mine.id, content: "v2 from the phone")

        for write in ["replace", "update", "delete"] {
            let error = await TransportFailureTests.failure { () async throws(NotesClientError) in
                switch write {
                case "replace":
                    _ = try await style.replace(
                        api, id: mine.id, content: "v2 from the laptop", date: mine.date,
                        ifMatch: mine.etag)
                case "update":
                    _ = try await style.update(api, id: mine.id, content: "x", ifMatch: mine.etag)
                default:
                    try await style.delete(api, id: mine.id, ifMatch: mine.etag)
                }
            }
            guard case .rest(.editConflict(let problem, let current)) = error else {
                Issue.record("\(write): expected 412, got \(String(describing: error))")
                continue
            }
            #expect(problem.status == 412)
            #expect(current == theirs, "\(write)")
        }
        // Nothing was written; with the current ETag the write goes through
        let resolved = try await style.replace(
            api, id: mine.id, content: "merged", date: mine.date, ifMatch: theirs.etag)
        #expect(resolved.content == "merged")

        // A conflict on a note deleted meanwhile carries no current version
        try await api.delete(id: mine.id)
        let error = await TransportFailureTests.failure { () async throws(NotesClientError) in
            try await style.delete(api, id: mine.id, ifMatch: resolved.etag)
        }
        switch error {
        case .rest(.editConflict(_, nil)), .rest(.notFound): break
        default:
            Issue.record("expected 412 without a note or 404, got \(String(describing: error))")
        }
    }

    @Test(
        "Pages: limit and cursor cover every note once, newest first",
        arguments: CallingStyle.allCases)
    func pagination(style: CallingStyle) async throws {
        let api = try Self.account()
        var created: [VersionedNote] = []
        for day in 1...7 {
            created.append(try await api.create("note \(day)", date: NoteDate("2026-11-0\(day)")))
        }
        let newestFirst = created.reversed().map(\.note)

        var seen: [Note] = []
        var cursor: String?
        var pages = 0
        repeat {
            let page = try await style.notes(api, limit: 3, cursor: cursor)
            #expect(page.notes.count <= 3)
            seen += page.notes.map(\.note)
            cursor = page.nextCursor
            pages += 1
        } while cursor != nil
        #expect(pages == 3)
        #expect(seen == newestFirst)

        #expect(try await style.allNotes(api, pageSize: 2).map(\.note) == newestFirst)
        #expect(try await style.allNotes(api).map(\.note) == newestFirst)
    }

    @Test("The AsyncSequence of pages fetches them lazily and in order")
    func pageSequence() async throws {
        let api = try Self.account()
        for day in 1...5 { _ = try await api.create("n\(day)", date: NoteDate("2026-12-0\(day)")) }
        var sizes: [Int] = []
        var contents: [String] = []
        for try await page in api.pages(pageSize: 2) {
            sizes.append(page.notes.count)
            contents += page.notes.map(\.content)
        }
        #expect(sizes == [2, 2, 1])
        #expect(contents == ["n5", "n4", "n3", "n2", "n1"])

        // A loop that stops early stops fetching
        var first: NotePage?
        for try await page in api.pages(pageSize: 2) {
            first = page
            break
        }
        #expect(first?.notes.map(\.content) == ["n5", "n4"])
    }

    @Test("Search with q: case-insensitive, CJK, across pages", arguments: CallingStyle.allCases)
    func search(style: CallingStyle) async throws {
        let api = try Self.account()
        for (text, day) in [
            ("买牛奶和面包", "01"), ("Buy MILK", "02"), ("牛奶咖啡 latte", "03"), ("tea", "04"),
            ("日本語のメモ", "05"), ("한국어 메모", "06"), ("milk & honey + 1", "07"),
        ] {
            _ = try await api.create(text, date: NoteDate("2026-10-\(day)"))
        }
        #expect(
            try await style.allNotes(api, q: "牛奶", pageSize: 1).map(\.content) == [
                "牛奶咖啡 latte", "买牛奶和面包",
            ])
        #expect(
            try await style.notes(api, q: "milk").notes.map(\.content) == [
                "milk & honey + 1", "Buy MILK",
            ])
        #expect(try await style.notes(api, q: "& honey + 1").notes.count == 1)
        #expect(try await style.notes(api, q: "メモ").notes.map(\.content) == ["日本語のメモ"])
        #expect(try await style.notes(api, q: "메모").notes.map(\.content) == ["한국어 메모"])
        #expect(try await style.notes(api, q: "coffee").notes.isEmpty)
    }

    @Test("401 without a token, 404 for another account's note", arguments: CallingStyle.allCases)
    func refusals(style: CallingStyle) async throws {
        let noToken = await TransportFailureTests.failure { () async throws(NotesClientError) in
            try await style.create(Self.api(), "x")
        }
        guard case .rest(.unauthorized) = noToken else {
            Issue.record("expected 401, got \(String(describing: noToken))")
            return
        }
        let owner = try Self.account()
        let other = try Self.account()
        let note = try await owner.create("mine")
        for call in ["get", "patch", "delete"] {
            let error = await TransportFailureTests.failure { () async throws(NotesClientError) in
                switch call {
                case "get": _ = try await style.note(other, id: note.id)
                case "patch": _ = try await style.update(other, id: note.id, content: "theirs")
                default: try await style.delete(other, id: note.id)
                }
            }
            guard case .rest(.notFound) = error else {
                Issue.record("\(call): expected 404, got \(String(describing: error))")
                continue
            }
        }
        #expect(try await owner.note(id: note.id).content == "mine")
    }

    @Test("409 for a taken email, 422 naming the field, in the client's language")
    func invalid() async throws {
        let email = Self.email()
        _ = try await Self.api().signUp(email: email, password: Self.password)
        let taken = await TransportFailureTests.failure { () async throws(NotesClientError) in
            try await Self.api(language: .chinese).signUp(email: email, password: Self.password)
        }
        guard case .rest(.alreadyExists(let problem)) = taken else {
            Issue.record("expected 409, got \(String(describing: taken))")
            return
        }
        #expect(problem.language == .chinese)
        #expect(taken?.message(in: .chinese) == "该邮箱已注册。")

        let short = await TransportFailureTests.failure { () async throws(NotesClientError) in
            try await Self.api().signUp(email: Self.email(), password: "short")
        }
        guard case .rest(.unprocessable(let shortProblem)) = short else {
            Issue.record("expected 422, got \(String(describing: short))")
            return
        }
        #expect(shortProblem.detail.contains("password"))

        let api = try Self.account()
        let empty = await TransportFailureTests.failure { () async throws(NotesClientError) in
            try await api.create("")
        }
        guard case .rest(.unprocessable(let emptyProblem)) = empty else {
            Issue.record("expected 422, got \(String(describing: empty))")
            return
        }
        #expect(emptyProblem.code == -5)
        #expect(empty?.resultCode == .missingContent)
        #expect(emptyProblem.detail.contains("content"))
    }

    @Test("403 when the quota is full, with the protocol's message")
    func quota() async throws {
        let server = try TestServer(.init(auth: .token, quota: 1))
        defer { server.shutdown() }
        let api = Self.api(token: try server.createAccount(email: Self.email()), on: server)
        _ = try await api.create("one")
        let error = await TransportFailureTests.failure { () async throws(NotesClientError) in
            try await api.create("two")
        }
        guard case .rest(.forbidden(let problem)) = error else {
            Issue.record("expected 403, got \(String(describing: error))")
            return
        }
        #expect(problem.code == -2)
        #expect(error?.message(in: .english) == "Your account can hold at most 1 notes.")
        #expect(error?.message(in: .chinese) == "您的账号最多能插入1条数据。")
    }

    @Test("429 with Retry-After after repeated wrong passwords", arguments: CallingStyle.allCases)
    func throttled(style: CallingStyle) async throws {
        // A server of its own, which tolerates two failures per account. The window is
        // long so that the first failure cannot age out of it before the third attempt
        // however slow the machine (under AddressSanitizer this test once saw 401 × 3).
        let window = Duration.seconds(3600)
        let server = try TestServer(
            .init(
                auth: .token,
                signInLimits: SignInLimits(perAccount: 2, perAddress: 100, window: window)))
        defer { server.shutdown() }
        let api = Self.api(on: server)
        let email = Self.email()
        try server.createAccount(email: email)
        var errors: [NotesClientError] = []
        let started = ContinuousClock.now
        for _ in 0..<3 {
            errors += [
                await TransportFailureTests.failure { () async throws(NotesClientError) in
                    try await style.signIn(api, email, "wrong password")
                }
            ].compactMap { $0 }
        }
        guard errors.count == 3, case .rest(.unauthorized) = errors[0],
            case .rest(.tooManyRequests(let problem, let retryAfter)) = errors[2]
        else {
            Issue.record(
                "expected 401 then 429, got \(errors) in \(ContinuousClock.now - started)")
            return
        }
        #expect(problem.status == 429)
        let wait = try #require(retryAfter)
        #expect(wait > .zero && wait <= window)
        #expect(errors[2].retryAfter == wait)
        // 429 is transient for reads; sign-in, like every write, is never retried
        #expect(RetryPolicy.isTransient(errors[2]))
    }

    @Test("Cancelling the handle ends a multi-page listing with .cancelled, once")
    func cancelAllNotes() async throws {
        let api = try Self.account()
        for day in 1...3 { _ = try await api.create("n\(day)", date: NoteDate("2026-12-0\(day)")) }
        let result = await withCheckedContinuation { continuation in
            let request = api.allNotes(pageSize: 1, on: CallingStyle.queue) {
                continuation.resume(returning: $0)
            }
            request.cancel()
        }
        guard case .failure(.cancelled) = result else {
            Issue.record("expected cancelled, got \(result)")
            return
        }
    }

    @Test("A server without the REST API answers .http(404), not a problem")
    func noAPI() async throws {
        let api = NotesAPIClient(
            server: Self.server.baseURL.appendingPathComponent("elsewhere"), token: "t")
        let error = await TransportFailureTests.failure { () async throws(NotesClientError) in
            try await api.notes()
        }
        guard case .http(404, _) = error else {
            Issue.record("expected .http(404), got \(String(describing: error))")
            return
        }
    }
}
