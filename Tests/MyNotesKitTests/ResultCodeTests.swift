import Foundation
import MyNotesProtocol
import MyNotesTesting
import Testing

@testable import MyNotesKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every failing ResultCode, produced by the real server and surfaced as the typed error.
@Suite("ResultCodes from the real server")
struct ResultCodeTests {
    static let tokenServer = try! TestServer(.init(auth: .token))
    static let emailServer = try! TestServer(.init(auth: .legacyEmail))
    static let quotaServer = try! TestServer(.init(auth: .token, quota: 2))

    static func client(_ server: TestServer, credentials: Credentials, wire: WireFormat)
        -> NotesClient
    {
        var configuration = NotesClient.Configuration(
            server: server.baseURL, credentials: credentials, language: .chinese)
        configuration.wire = wire
        return NotesClient(configuration)
    }

    static func account(_ server: TestServer) throws -> Credentials {
        let email = "rc-\(UUID().uuidString)@example.com"
        return .token(email: email, token: try server.createAccount(email: email))
    }

    /// Runs the call and returns the error it threw, or nil.
    static func failure(_ call: () async throws(NotesClientError) -> Void) async
        -> NotesClientError?
    {
        do {
            try await call()
            return nil
        } catch {
            return error
        }
    }

    @Test("-1: no such user, on an email-only server", arguments: WireFormat.allCases)
    func noSuchUser(wire: WireFormat) async {
        let client = Self.client(
            Self.emailServer, credentials: .emailOnly("nobody@example.com"), wire: wire)
        let error = await Self.failure { () async throws(NotesClientError) in
            _ = try await client.query()
        }
        #expect(error?.resultCode == .noSuchUser)
        #expect(error?.message(in: .chinese) == "用户不存在，请先注册。")
    }

    @Test("Email-only mode works without a token", arguments: WireFormat.allCases)
    func emailOnly(wire: WireFormat) async throws {
        let email = "book-\(UUID().uuidString)@example.com"
        try Self.emailServer.createAccount(email: email)
        let client = Self.client(Self.emailServer, credentials: .emailOnly(email), wire: wire)
        let note = try await client.add("book mode", date: NoteDate("2026-01-01"))
        #expect(try await client.query() == [note])
    }

    @Test("-2: the quota is full, and the message names it", arguments: WireFormat.allCases)
    func quota(wire: WireFormat) async throws {
        let client = Self.client(
            Self.quotaServer, credentials: try Self.account(Self.quotaServer), wire: wire)
        _ = try await client.add("one", date: NoteDate("2026-01-01"))
        _ = try await client.add("two", date: NoteDate("2026-01-01"))
        let error = await Self.failure { () async throws(NotesClientError) in
            _ = try await client.add("three", date: NoteDate("2026-01-01"))
        }
        #expect(error?.resultCode == .quotaExceeded)
        #expect(error?.message(in: .chinese) == "您的账号最多能插入2条数据。")
        #expect(error?.message(in: .english) == "Your account can hold at most 2 notes.")
    }

    @Test("-5: empty content", arguments: WireFormat.allCases)
    func missingContent(wire: WireFormat) async throws {
        let client = Self.client(
            Self.tokenServer, credentials: try Self.account(Self.tokenServer), wire: wire)
        let error = await Self.failure { () async throws(NotesClientError) in
            _ = try await client.add("", date: NoteDate("2026-01-01"))
        }
        #expect(error?.resultCode == .missingContent)
    }

    @Test("-7: no such note, also another account's note", arguments: WireFormat.allCases)
    func noSuchNote(wire: WireFormat) async throws {
        let owner = Self.client(
            Self.tokenServer, credentials: try Self.account(Self.tokenServer), wire: wire)
        let other = Self.client(
            Self.tokenServer, credentials: try Self.account(Self.tokenServer), wire: wire)
        let note = try await owner.add("mine", date: NoteDate("2026-01-01"))
        let error = await Self.failure { () async throws(NotesClientError) in
            try await other.remove(id: note.id)
        }
        #expect(error?.resultCode == .noSuchNote)
        #expect(try await owner.query() == [note])
    }

    @Test("-8: a control character in the content", arguments: WireFormat.allCases)
    func invalidParameter(wire: WireFormat) async throws {
        let client = Self.client(
            Self.tokenServer, credentials: try Self.account(Self.tokenServer), wire: wire)
        let error = await Self.failure { () async throws(NotesClientError) in
            _ = try await client.add("bell \u{7}", date: NoteDate("2026-01-01"))
        }
        #expect(error?.resultCode == .invalidParameter)
        #expect(error?.message(in: .chinese) == "参数无效。")
    }

    @Test("-9: a wrong token", arguments: WireFormat.allCases)
    func authenticationFailed(wire: WireFormat) async throws {
        let email = "auth-\(UUID().uuidString)@example.com"
        try Self.tokenServer.createAccount(email: email)
        let client = Self.client(
            Self.tokenServer, credentials: .token(email: email, token: "wrong"), wire: wire)
        let error = await Self.failure { () async throws(NotesClientError) in
            _ = try await client.query()
        }
        #expect(error?.resultCode == .authenticationFailed)
        #expect(error?.message(in: .english) == "Authentication failed.")
    }

    /// -4 and -6 cannot come from the SDK, whose calls always send an ID and a date;
    /// a careless client's request, sent raw, gets them, and the SDK's reader maps them.
    @Test(
        "-4 and -6 from careless requests read as typed errors",
        arguments: [
            ("action=remove", ResultCode.missingID), ("action=add&content=x", .missingDate),
        ], WireFormat.allCases)
    func carelessRequests(request careless: (String, ResultCode), wire: WireFormat) async throws {
        let (parameters, expected) = careless
        let credentials = try Self.account(Self.tokenServer)
        var request = URLRequest(url: Self.tokenServer.legacyURL)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(
            "email=\(credentials.email)&token=\(credentials.token!)&type=\(wire.rawValue)&\(parameters)"
                .utf8)
        let (data, _) = try await URLSession.shared.data(for: request)
        let error = await Self.failure { () async throws(NotesClientError) in
            _ = try LegacyResponse.decode(data, format: wire).validated()
        }
        #expect(error?.resultCode == expected)
    }
}
