import Foundation
import MyNotesTesting

/// Speaks REST API v1 to a test server, one connection per request (so it can be used
/// from many tasks at once), and reads answers as a browser would. The connection is the
/// router in this process (the transport has tests of its own), or a TCP connection for
/// the tests that replay an attack as it would come.
struct RESTClient: Sendable {
    struct Response: Sendable {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]

        var text: String { String(decoding: body, as: UTF8.self) }

        /// The body as a JSON object (empty when it is not one).
        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
        }

        func header(_ name: String) -> String? { headers[name.lowercased()] }

        /// The problem's `code`, `detail` and content type, for error answers.
        var problemCode: Int? { json["code"] as? Int }
        var detail: String { json["detail"] as? String ?? "" }
        var isProblem: Bool {
            header("Content-Type")?.hasPrefix("application/problem+json") == true
        }
    }

    let server: TestServer
    var token: String?
    /// In this process unless a test replays an attack over TCP (``TestTransport/socket``).
    var transport: TestTransport

    init(_ server: TestServer, token: String? = nil, over transport: TestTransport = .inProcess) {
        self.server = server
        self.token = token
        self.transport = transport
    }

    func with(token: String?) -> RESTClient { RESTClient(server, token: token, over: transport) }

    @discardableResult
    func send(
        _ method: String, _ path: String, json: Any? = nil, rawBody: String? = nil,
        contentType: String = "application/json", headers: [String: String] = [:]
    ) throws -> Response {
        var body: [UInt8] = []
        if let json {
            body = Array(
                try JSONSerialization.data(withJSONObject: json, options: [.fragmentsAllowed]))
        } else if let rawBody {
            body = Array(rawBody.utf8)
        }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if json != nil || rawBody != nil {
            head += "Content-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n"
        }
        head += "\r\n"
        let raw = try server.connect(transport).send(Array(head.utf8) + body)
        var fields: [String: String] = [:]
        for field in raw.headers { fields[field.name.lowercased()] = field.value }
        return Response(status: raw.status, headers: fields, body: raw.body)
    }

    /// Signs up `email` and returns a client bearing its first token.
    func signUp(_ email: String, password: String = "password 123") throws -> RESTClient {
        let response = try send(
            "POST", "/api/v1/accounts", json: ["email": email, "password": password])
        guard response.status == 201, let token = response.json["token"] as? String else {
            throw Unexpected(response)
        }
        return with(token: token)
    }

    /// Creates a note and returns its JSON and ETag.
    func createNote(
        _ content: String, date: String? = nil
    ) throws -> (note: [String: Any], etag: String) {
        var body = ["content": content]
        if let date { body["date"] = date }
        let response = try send("POST", "/api/v1/notes", json: body)
        guard response.status == 201, let etag = response.header("ETag") else {
            throw Unexpected(response)
        }
        return (response.json, etag)
    }

    struct Unexpected: Error, CustomStringConvertible {
        let response: Response
        init(_ response: Response) { self.response = response }
        var description: String { "unexpected \(response.status): \(response.text)" }
    }
}
