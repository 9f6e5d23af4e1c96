import Foundation
import HTTPCore
import MyNotesTesting
import Testing

/// Every answer the server sends carries `X-Content-Type-Options: nosniff`, whoever made
/// it: a route, the router's 404 and 405, the server's own refusals, a streamed body.
@Suite struct ContentTypeOptionsTests {
    let server: HTTPServer

    init() throws {
        var router = Router()
        router.on("/ok", methods: [.get, .post]) { _, _ in
            HTTPResponse(status: .ok, contentType: "text/plain", body: Array("ok".utf8))
        }
        router.on("/busy", methods: [.get]) { _, _ in .plain(.serviceUnavailable) }
        router.on("/own", methods: [.get]) { _, _ in
            HTTPResponse(
                status: .ok, headers: ["X-Content-Type-Options": "nosniff"], body: Array("x".utf8))
        }
        router.on("/stream", methods: [.get]) { _, _ in
            let body = StreamingBody()
            body.finish()
            return HTTPResponse(status: .ok, contentType: "text/plain", stream: body)
        }
        server = try HTTPServer.onLoopback(router) {
            $0.maxBodyBytes = 100
            $0.allowedHosts = AllowedHosts(["t"])!
        }
    }

    @Test(arguments: [
        ("GET /ok HTTP/1.1\r\nHost: t\r\n\r\n", 200),
        ("GET /stream HTTP/1.1\r\nHost: t\r\n\r\n", 200),
        ("GET /nowhere HTTP/1.1\r\nHost: t\r\n\r\n", 404),
        ("DELETE /ok HTTP/1.1\r\nHost: t\r\n\r\n", 405),
        ("GET /busy HTTP/1.1\r\nHost: t\r\n\r\n", 503),
        ("GET /ok HTTP/1.1\r\n\r\n", 400),
        ("POST /ok HTTP/1.1\r\nHost: t\r\nContent-Length: 101\r\n\r\n", 413),
        ("GET /ok?\(String(repeating: "q", count: 70_000)) HTTP/1.1\r\nHost: t\r\n\r\n", 414),
        (
            "GET /ok HTTP/1.1\r\nHost: t\r\nX-Big: \(String(repeating: "h", count: 17_000))\r\n\r\n",
            431
        ),
        ("GET /ok HTTP/1.1\r\nHost: elsewhere\r\n\r\n", 421),
    ])
    func everyAnswerCarriesNosniff(request: String, status: Int) throws {
        let response = try RawHTTPClient(port: server.port).send(request)
        #expect(response.status == status)
        #expect(response.header("X-Content-Type-Options") == "nosniff")
    }

    @Test func aResponderThatSetsItIsNotAnsweredWithTwo() throws {
        let response = try RawHTTPClient(port: server.port)
            .send("GET /own HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(response.headers.filter { $0.name == "X-Content-Type-Options" }.count == 1)
    }
}
