import HTTPCore
import MyNotesTesting
import Testing

/// Routes match the path as sent, split at its real slashes before any decoding: an
/// encoded `/` cannot reach a route a front proxy's path rule was meant to guard
/// (`/mynotes%2fwebservice.php` once reached the legacy handler).
@Suite struct RawPathRoutingTests {
    let server: HTTPServer

    init() throws {
        var router = Router()
        router.on(
            PathPattern("/mynotes/webservice.php", matching: .caseInsensitive), methods: [.get],
            responder: ClosureResponder { _, _ in
                HTTPResponse(status: .ok, contentType: "text/plain", body: Array("legacy".utf8))
            })
        router.on(
            PathPattern("/items/{id}"), methods: [.get],
            responder: ClosureResponder { request, context in
                HTTPResponse(
                    status: .ok, contentType: "text/plain",
                    body: Array("\(context.parameters["id"] ?? "") \(request.path)".utf8))
            })
        server = try HTTPServer.onLoopback(router)
    }

    func get(_ target: String) throws -> RawHTTPClient.Response {
        try RawHTTPClient(port: server.port).send("GET \(target) HTTP/1.1\r\nHost: t\r\n\r\n")
    }

    @Test(arguments: [
        "/mynotes%2fwebservice.php", "/mynotes%2Fwebservice.php", "/MyNotes%2FWebService.php",
        "%2Fmynotes/webservice.php", "/mynotes%2fwebservice.php?action=query", "/items%2F42",
        "/items%2f", "/mynotes/webservice.php%2F",
    ])
    func anEncodedSlashSplitsNoSegment(target: String) throws {
        #expect(try get(target).status == 404)
    }

    /// Escapes inside a segment are decoded as before, so that every path a client
    /// encodes keeps working.
    @Test(arguments: [
        ("/mynotes/webservice%2Ephp", "legacy"), ("/%6Dynotes/webservice.php", "legacy"),
        ("/MYNOTES/WEBSERVICE.PHP", "legacy"), ("/items/42", "42 /items/42"),
        ("/items/caf%C3%A9", "café /items/café"), ("/items/a%20b", "a b /items/a b"),
        ("/items/a%2Fb", "a/b /items/a/b"), ("/items/100%", "100% /items/100%"),
        ("/items/%zz", "%zz /items/%zz"),
    ])
    func decodesEachSegmentAfterSplitting(target: String, answer: String) throws {
        let response = try get(target)
        #expect(response.status == 200)
        #expect(response.text == answer)
    }
}
