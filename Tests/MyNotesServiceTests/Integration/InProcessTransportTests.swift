import Foundation
import MyNotesTesting
import Testing

/// The in-process transport the rule suites use answers exactly as the server does over
/// TCP: same status, same header fields, same body, for the same bytes sent.
@Suite("In-process transport")
struct InProcessTransportTests {
    /// Fields the HTTP server adds on the wire and the router never sees.
    static let wireOnlyFields: Set<String> = ["date", "connection"]

    static let requests: [String] = [
        "GET /mynotes/webservice.php?email=ann%40example.com&token=TOKEN&action=query HTTP/1.1\r\nHost: t\r\n\r\n",
        "GET /MyNotes/WebService.php?email=ann@example.com&action=query&type=XML HTTP/1.1\r\nHost: t\r\n\r\n",
        "HEAD /mynotes/webservice.php?email=ann%40example.com&token=TOKEN&action=query HTTP/1.1\r\nHost: t\r\n\r\n",
        "POST /mynotes/webservice.php HTTP/1.1\r\nHost: t\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 45\r\n\r\nemail=ann%40example.com&action=add&content=%FF",
        "POST /mynotes/webservice.php HTTP/1.1\r\nHost: t\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nemail\r\n1d\r\n=ann%40example.com&action=bad\r\n0\r\n\r\n",
        "PUT /mynotes/webservice.php HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n",
        "GET /nowhere HTTP/1.1\r\nHost: t\r\n\r\n",
        "GET /api/v1/notes HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer TOKEN\r\nAccept-Language: zh\r\n\r\n",
        "GET /api/v1/notes HTTP/1.1\r\nHost: t\r\n\r\n",
        "POST /api/v1/accounts HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 9\r\n\r\n{\"email\":",
        "GET /api/v1/openapi.json HTTP/1.1\r\nHost: t\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: t\r\n\r\n",
        "GET /assets/app.css HTTP/1.1\r\nHost: t\r\nIf-None-Match: *\r\n\r\n",
    ]

    @Test("Same bytes in, same answer out, as over TCP", arguments: requests)
    func sameAnswer(request: String) throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let token = try server.createAccount(email: "ann@example.com")
        // The client names the request, so that both answers carry the same ID.
        let named = request.replacingOccurrences(of: "TOKEN", with: token)
            .replacingOccurrences(of: "Host: t\r\n", with: "Host: t\r\nX-Request-ID: parity-1\r\n")
        let bytes = Array(named.utf8)
        let overTCP = try server.connect(.socket).send(bytes)
        let inProcess = try server.connect(.inProcess).send(bytes)
        #expect(inProcess.status == overTCP.status)
        #expect(inProcess.body == overTCP.body)
        #expect(Self.fields(inProcess) == Self.fields(overTCP))
    }

    static func fields(_ response: RawHTTPClient.Response) -> [String] {
        response.headers
            .filter { !wireOnlyFields.contains($0.name.lowercased()) }
            .map { "\($0.name.lowercased()): \($0.value)" }
            .sorted()
    }
}
