import Foundation
import HTTPCore
import MyNotesTesting
import Testing

/// Request smuggling attacks replayed over TCP: a request whose body two parsers could
/// frame differently is answered 400 and its connection closed, so the bytes after it
/// never run as a request of their own (RFC 9112 §6.1, §6.3).
@Suite struct RequestSmugglingTests {
    /// One attack: a head and body that frame ambiguously, followed by the request an
    /// attacker would smuggle.
    struct Attack: Sendable, CustomTestStringConvertible {
        let name: String
        let bytes: [UInt8]
        var testDescription: String { name }

        init(_ name: String, _ head: String, body: String = "") {
            self.name = name
            bytes = Array((head + "\r\n" + body).utf8)
        }

        init(_ name: String, header value: [UInt8]) {
            self.name = name
            bytes =
                Array("POST /echo HTTP/1.1\r\nHost: t\r\nX-Attack: ".utf8) + value
                + Array("\r\nContent-Length: 0\r\n\r\n".utf8)
        }
    }

    /// The request each attack tries to smuggle; ``smuggled`` counts its runs.
    static let smuggledRequest = Array("GET /smuggled HTTP/1.1\r\nHost: t\r\n\r\n".utf8)

    let smuggled = EventCounter("a smuggled request ran")
    let server: HTTPServer

    init() throws {
        var router = Router()
        router.on("/echo", methods: [.get, .post]) { request, _ in
            HTTPResponse(
                status: .ok, contentType: "text/plain",
                body: Array("\(request.method) \(request.body.count) ".utf8) + request.body)
        }
        let smuggled = smuggled
        router.on("/smuggled", methods: [.get]) { _, _ in
            smuggled.signal()
            return HTTPResponse(status: .ok, contentType: "text/plain", body: Array("ran".utf8))
        }
        server = try HTTPServer.onLoopback(router)
    }

    static let chunkedEnd = "0\r\n\r\n"

    static let ambiguousFraming: [Attack] = [
        Attack(
            "Content-Length with Transfer-Encoding",
            "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n",
            body: chunkedEnd),
        Attack(
            "Transfer-Encoding before Content-Length",
            "POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n",
            body: chunkedEnd),
        Attack(
            "Content-Length with CHUNKED",
            "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 4\r\nTransfer-Encoding: CHUNKED\r\n",
            body: chunkedEnd),
        Attack(
            "Content-Length with a bare-LF chunked body",
            "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 9\r\nTransfer-Encoding: chunked\r\n",
            body: "3\nabc\n0\n\n"),
        Attack(
            "GET with Content-Length and Transfer-Encoding",
            "GET /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n",
            body: chunkedEnd),
        Attack(
            "an unknown coding", "POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: gzip\r\n",
            body: "abc"),
        Attack(
            "a coding before chunked",
            "POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: gzip, chunked\r\n",
            body: chunkedEnd),
        Attack(
            "chunked twice in one field",
            "POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked, chunked\r\n",
            body: chunkedEnd),
        Attack(
            "two Transfer-Encoding fields",
            "POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n"
                + "Transfer-Encoding: chunked\r\n", body: chunkedEnd),
        Attack(
            "chunked and a trailing blank",
            "POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked \r\n", body: chunkedEnd),
        Attack(
            "chunked with a parameter",
            "POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked;q=1\r\n",
            body: chunkedEnd),
        Attack(
            "Transfer-Encoding in HTTP/1.0",
            "POST /echo HTTP/1.0\r\nHost: t\r\nTransfer-Encoding: chunked\r\n", body: chunkedEnd),
        Attack("a bare CR in a value", header: Array("a\rb".utf8)),
        Attack("a bare CR ending a value", header: Array("a\r".utf8)),
        Attack("SOH in a value", header: [0x61, 0x01, 0x62]),
        Attack("ESC in a value", header: Array("\u{1B}[31mred".utf8)),
        Attack("US in a value", header: [0x61, 0x1F]),
        Attack("DEL in a value", header: [0x61, 0x7F, 0x62]),
        // A bare LF taken for the CRLF that ends a chunk line, and a NUL that cuts a value
        // short, are read differently by different parsers. (The earlier server's HTTP
        // library hid both from the code above it, which therefore could not refuse them.)
        Attack(
            "bare LF chunk lines",
            "POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n",
            body: "3\nabc\n0\n\n"),
        Attack(
            "a bare LF after chunk data",
            "POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n",
            body: "3\r\nabc\n0\r\n\r\n"),
        Attack("NUL in a value", header: [0x61, 0x00, 0x62]),
    ]

    @Test(arguments: ambiguousFraming)
    func refusesAmbiguousFramingAndCloses(attack: Attack) throws {
        let client = try RawHTTPClient(port: server.port)
        client.write(attack.bytes + Self.smuggledRequest)
        let response = try client.readResponse()
        #expect(response.status == 400)
        #expect(response.header("Connection")?.lowercased() == "close")
        // Closed after the 400, without a second answer: the smuggled request never ran.
        #expect(client.isClosedByServer())
        #expect(smuggled.value == 0)
    }

    /// Transfer-coding names are case-insensitive (RFC 9112 §7), and the server reads
    /// `CHUNKED` as chunked: the body and the next request are framed as by `chunked`.
    @Test(arguments: ["chunked", "CHUNKED", "Chunked"])
    func readsChunkedInAnyCaseAndKeepsTheConnection(coding: String) throws {
        let client = try RawHTTPClient(port: server.port)
        client.write(
            "POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: \(coding)\r\n\r\n"
                + "3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n")
        client.write(Self.smuggledRequest)
        #expect(try client.readResponse().text == "POST 5 abcde")
        // The request after a correctly framed body is a real one, on the same connection.
        #expect(try client.readResponse().text == "ran")
        #expect(smuggled.value == 1)
    }

    /// Strict is not stingy: chunk extensions, upper-case sizes, leading zeros and trailer
    /// fields are all valid chunked framing (RFC 9112 §7.1), and the request after is served.
    @Test(arguments: [
        ("3;name=value\r\nabc\r\n0\r\n\r\n", "POST 3 abc"),
        ("0003\r\nabc\r\n0\r\nX-Trailer: t\r\n\r\n", "POST 3 abc"),
        ("A\r\nabcdefghij\r\n0;last\r\n\r\n", "POST 10 abcdefghij"),
    ])
    func acceptsEveryValidChunkedFraming(body: String, echo: String) throws {
        let client = try RawHTTPClient(port: server.port)
        let response = try client.send(
            "POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n" + body)
        #expect(response.status == 200)
        #expect(response.text == echo)
        #expect(try client.send(Self.smuggledRequest).text == "ran")
    }

    /// HTAB and bytes above 0x7F (UTF-8 text) are field content, not controls.
    @Test func acceptsTabsAndUTF8InValues() throws {
        let client = try RawHTTPClient(port: server.port)
        let response = try client.send(
            Attack("tab and UTF-8", header: Array("a\tb café".utf8)).bytes)
        #expect(response.status == 200)
        #expect(try client.send(Self.smuggledRequest).text == "ran")
    }
}
