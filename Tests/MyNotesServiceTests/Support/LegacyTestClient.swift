import Foundation
import MyNotesDomain
import MyNotesService
import MyNotesTesting

/// One `name=value` parameter, as a test writes it before it goes on the wire.
struct Parameter: Sendable, CustomStringConvertible {
    var name: String
    var value: String

    init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    var description: String { "\(name)=\(value)" }
}

/// Wire encodings of parameters, correct and careless.
enum FormEncoding {
    /// What a correct client does: every byte but the unreserved ones as `%XX`.
    static func encode(_ parameters: [Parameter]) -> String {
        parameters.map { "\(escape($0.name))=\(escape($0.value))" }.joined(separator: "&")
    }

    static func escape(_ text: String) -> String {
        escape(text) { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"), UInt8(ascii: "~"):
                false
            default: true
            }
        }
    }

    /// What the seed app did: it encoded the whole URL, escaping only `"+$,#[] ` and
    /// non-ASCII, so `&`, `=` and `%` inside values went out as they were.
    static func seedAppEscape(_ text: String) -> String {
        escape(text) { byte in byte >= 0x80 || Array(#""+$,#[] "#.utf8).contains(byte) }
    }

    private static func escape(_ text: String, where needsEscape: (UInt8) -> Bool) -> String {
        var out = ""
        for byte in text.utf8 {
            if needsEscape(byte) {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            } else {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return out
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}

/// A legacy answer in JSON, as any client decodes it.
struct LegacyReply: Decodable, Equatable {
    struct Record: Decodable, Equatable {
        var id: String
        var date: String
        var content: String

        enum CodingKeys: String, CodingKey {
            case id = "ID", date = "CDate", content = "Content"
        }
    }

    var resultCode: Int
    var message: String?
    var id: String?
    var record: [Record]?

    enum CodingKeys: String, CodingKey {
        case resultCode = "ResultCode", message = "Message", id = "ID", record = "Record"
    }
}

/// A server with one account, and a connection to it: the router in this process
/// unless the test is about the transport (`over: .socket`, a keep-alive TCP connection).
///
/// Every request helper adds the account's `email` (and `token` in token mode)
/// unless `as:` says otherwise, so tests only write what they are about.
final class LegacyFixture {
    static let defaultPath = "/mynotes/webservice.php"

    let server: TestServer
    let auth: AuthenticationMode
    let email: String
    let token: String
    let transport: TestTransport
    let client: any HTTPConnection

    init(
        auth: AuthenticationMode = .token, quota: Int = 0, email: String = "ann@example.com",
        over transport: TestTransport = .inProcess,
        backend: TestServer.Backend = .chosenByEnvironment,
        clock: any Clock<Duration> = ContinuousClock()
    ) throws {
        server = try TestServer(.init(auth: auth, quota: quota, clock: clock, backend: backend))
        self.auth = auth
        self.email = email
        self.transport = transport
        token = try server.createAccount(email: email)
        client = try server.connect(transport)
    }

    deinit {
        server.shutdown()
    }

    /// The parameters that identify this fixture's account.
    var credentials: [Parameter] {
        auth == .token
            ? [Parameter("email", email), Parameter("token", token)]
            : [
                Parameter("email", email)
            ]
    }

    /// A new connection, for requests the server answers by closing it.
    func newClient() throws -> any HTTPConnection { try server.connect(transport) }

    /// The keep-alive TCP connection of a fixture made `over: .socket`.
    var socket: RawHTTPClient {
        guard let socket = client as? RawHTTPClient else {
            preconditionFailure("the fixture was made in-process; make it `over: .socket`")
        }
        return socket
    }

    // MARK: Raw requests

    /// Sends `METHOD target` with the given headers and body as they are.
    func send(
        _ method: String = "GET", target: String, headers: [String] = [], body: [UInt8] = [],
        on connection: (any HTTPConnection)? = nil
    ) throws -> RawHTTPClient.Response {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: test\r\n"
        for header in headers { head += header + "\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        return try (connection ?? client).send(Array(head.utf8) + body)
    }

    /// A GET whose query string is written exactly as given.
    func get(
        query: String, path: String = defaultPath, headers: [String] = []
    ) throws -> RawHTTPClient.Response {
        try send(target: "\(path)?\(query)", headers: headers)
    }

    /// A POST whose body and query string are written exactly as given.
    func post(
        body: [UInt8], query: String? = nil, path: String = defaultPath,
        contentType: String? = "application/x-www-form-urlencoded", headers: [String] = [],
        on connection: (any HTTPConnection)? = nil
    ) throws -> RawHTTPClient.Response {
        let target = query.map { "\(path)?\($0)" } ?? path
        let allHeaders = (contentType.map { ["Content-Type: \($0)"] } ?? []) + headers
        return try send("POST", target: target, headers: allHeaders, body: body, on: connection)
    }

    // MARK: Encoded requests

    /// A correctly encoded GET: the credentials, then `parameters`.
    func get(
        _ parameters: [Parameter], as identity: [Parameter]? = nil, path: String = defaultPath,
        headers: [String] = []
    ) throws -> RawHTTPClient.Response {
        try get(
            query: FormEncoding.encode((identity ?? credentials) + parameters), path: path,
            headers: headers)
    }

    /// A correctly encoded urlencoded POST, everything in the body.
    func post(
        _ parameters: [Parameter], as identity: [Parameter]? = nil, path: String = defaultPath,
        headers: [String] = []
    ) throws -> RawHTTPClient.Response {
        try post(
            body: Array(FormEncoding.encode((identity ?? credentials) + parameters).utf8),
            path: path, headers: headers)
    }

    /// A `multipart/form-data` POST, everything in the body.
    func postMultipart(
        _ parameters: [Parameter], as identity: [Parameter]? = nil, headers: [String] = []
    ) throws -> RawHTTPClient.Response {
        let boundary = "----MyNotesBoundary7MA4YWxkTrZu0gW"
        return try post(
            body: Multipart.body(
                (identity ?? credentials).map { ($0.name, Array($0.value.utf8)) }
                    + parameters.map { ($0.name, Array($0.value.utf8)) },
                boundary: boundary),
            contentType: "multipart/form-data; boundary=\(boundary)", headers: headers)
    }

    // MARK: Actions that must succeed

    /// Adds a note and returns its ID.
    @discardableResult
    func add(_ content: String, date: String = "2026-11-29") throws -> String {
        let reply = try post([
            Parameter("action", "add"), Parameter("date", date), Parameter("content", content),
        ]).reply()
        guard reply.resultCode == 0, let id = reply.id else { throw UnexpectedReply(reply) }
        return id
    }

    /// The account's notes, as the server answers a query.
    func notes() throws -> [LegacyReply.Record] {
        let reply = try get([Parameter("action", "query")]).reply()
        guard reply.resultCode == 0, let records = reply.record else {
            throw UnexpectedReply(reply)
        }
        return records
    }
}

struct UnexpectedReply: Error {
    let reply: LegacyReply
    init(_ reply: LegacyReply) { self.reply = reply }
}

/// Builds `multipart/form-data` bodies byte by byte.
enum Multipart {
    static func body(_ fields: [(name: String, value: [UInt8])], boundary: String) -> [UInt8] {
        var out: [UInt8] = []
        for field in fields {
            out += Array("--\(boundary)\r\n".utf8)
            out += Array("Content-Disposition: form-data; name=\"\(field.name)\"\r\n\r\n".utf8)
            out += field.value
            out += Array("\r\n".utf8)
        }
        out += Array("--\(boundary)--\r\n".utf8)
        return out
    }
}

extension RawHTTPClient.Response {
    /// The body decoded as a legacy JSON answer.
    func reply() throws -> LegacyReply {
        try JSONDecoder().decode(LegacyReply.self, from: Data(body))
    }

    /// The body as text without the one trailing newline the protocol allows,
    /// for byte-exact comparisons.
    var document: String {
        var text = self.text
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// The `ResultCode` of a JSON answer, `nil` when the body is not one.
    var resultCode: Int? { try? reply().resultCode }
}

/// `[Parameter]` from `name=value` literals, for short argument lists.
func parameters(_ pairs: KeyValuePairs<String, String>) -> [Parameter] {
    pairs.map { Parameter($0.key, $0.value) }
}
