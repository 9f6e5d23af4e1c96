import Foundation
import MyNotesTesting

/// Requests to one server process (or a balancer), one connection each, with the answer's
/// JSON at hand: what the multi-instance tests send.
struct InstanceClient: Sendable {
    struct Answer {
        var status: Int
        var headers: [(name: String, value: String)]
        var json: [String: Any]

        func header(_ name: String) -> String? {
            headers.last { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    let port: Int

    func send(
        _ method: String, _ path: String, token: String? = nil, json: [String: Any]? = nil,
        headers: [String: String] = [:]
    ) throws -> Answer {
        let body = try json.map { Array(try JSONSerialization.data(withJSONObject: $0)) } ?? []
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if json != nil {
            head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n"
        }
        let response = try RawHTTPClient(port: port).send(Array((head + "\r\n").utf8) + body)
        let object =
            (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
        return Answer(status: response.status, headers: response.headers, json: object ?? [:])
    }

    /// Signs up and returns the new account's token.
    func signUp(_ email: String) throws -> String {
        let answer = try send(
            "POST", "/api/v1/accounts", json: ["email": email, "password": "password 123"])
        guard answer.status == 201, let token = answer.json["token"] as? String else {
            throw PostgreSQLClusterError("sign-up answered \(answer.status) \(answer.json)")
        }
        return token
    }

    /// A legacy `add`; the note's ID when acknowledged, `nil` for any other answer.
    func legacyAdd(email: String, token: String, content: String, date: String) -> String? {
        legacyAnswer(email: email, token: token, content: content, date: date).id
    }

    /// A legacy `add`'s outcome: `0` with the note's ID, `-3/503` or `-3/200` (ResultCode
    /// and HTTP status), or what else came back (`no answer` when the connection failed).
    func legacyAnswer(email: String, token: String, content: String, date: String)
        -> (kind: String, id: String?)
    {
        let query =
            "email=\(email)&token=\(token)&action=add&date=\(date)&content=\(content)"
        guard
            let response = try? RawHTTPClient(port: port).send(
                "GET /mynotes/webservice.php?\(query) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
            )
        else { return ("no answer", nil) }
        let object =
            (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
        guard let code = object?["ResultCode"] as? Int else {
            return ("HTTP \(response.status)", nil)
        }
        if code == 0 { return ("0", object?["ID"] as? String) }
        return ("\(code)/\(response.status)", nil)
    }

    /// Every note of the account, newest first, page by page (`limit` each) through the
    /// REST API's cursors; `between` runs after each page.
    func allNotes(token: String, limit: Int, between: () throws -> Void = {}) throws
        -> [[String: Any]]
    {
        var notes: [[String: Any]] = []
        var cursor = ""
        repeat {
            let answer = try send(
                "GET", "/api/v1/notes?limit=\(limit)&cursor=\(cursor)", token: token)
            guard answer.status == 200 else {
                throw PostgreSQLClusterError("a page answered \(answer.status)")
            }
            notes += answer.json["notes"] as? [[String: Any]] ?? []
            cursor = answer.json["nextCursor"] as? String ?? ""
            try between()
        } while !cursor.isEmpty
        return notes
    }
}
