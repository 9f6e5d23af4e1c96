import Foundation
import HTTPCore
import MyNotesTesting
import Testing

/// `HTTPRequest.clientAddress` is the peer of the real socket, in numeric form.
@Suite struct ClientAddressTests {
    @Test func aRequestKnowsTheAddressItCameFrom() throws {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threads = 1
        var router = Router()
        router.on("/whoami", methods: [.get]) { request, _ in
            HTTPResponse(
                status: .ok, contentType: "text/plain",
                body: Array((request.clientAddress ?? "unknown").utf8))
        }
        let server = try HTTPServer(configuration: configuration, responder: router)
        defer { server.shutdown() }
        let response = try RawHTTPClient(port: server.port).send(
            "GET /whoami HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(response.status == 200)
        #expect(response.text == "127.0.0.1")
    }
}
