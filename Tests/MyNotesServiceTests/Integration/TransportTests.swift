import Foundation
import HTTPCore
import MyNotesDomain
import MyNotesService
import MyNotesTesting
import Testing

/// docs/PROTOCOL.md: requests that are not protocol answers (400, 413, 414, 431), and -3
/// when the store fails.
@Suite("Transport limits and store failures")
struct TransportTests {
    @Test(
        "Malformed HTTP is a plain 400",
        arguments: [
            "Host: t\r\nBad Header\r\n",
            "Host: t\r\nContent-Length: abc\r\n",
            "Host: t\r\nTransfer-Encoding: chunked\r\n\r\nzz",
        ])
    func malformed(headers: String) throws {
        let fixture = try LegacyFixture(over: .socket)
        let query = FormEncoding.encode(fixture.credentials + [Parameter("action", "query")])
        let response = try fixture.newClient().send(
            "POST /mynotes/webservice.php?\(query) HTTP/1.1\r\n\(headers)\r\n")
        #expect(response.status == 400)
        #expect(response.resultCode == nil)
    }

    /// Requests RFC 9112 requires a server to refuse with 400 (§3.2, §5.1, §6.3):
    /// answering them invites request smuggling through proxies.
    @Test(
        "Requests that RFC 9112 calls malformed are a plain 400",
        arguments: [
            "GET %@ HTTP/1.1\r\n\r\n",  // HTTP/1.1 without Host
            "GET %@ HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",  // two Hosts
            "GET %@ HTTP/1.1\r\nHost : t\r\n\r\n",  // whitespace before the colon
            "POST %@ HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\nabcde",
        ])
    func rfcMalformed(template: String) throws {
        let fixture = try LegacyFixture(over: .socket)
        let target =
            "/mynotes/webservice.php?"
            + FormEncoding.encode(fixture.credentials + [Parameter("action", "query")])
        let response = try fixture.newClient().send(
            template.replacingOccurrences(of: "%@", with: target))
        #expect(response.status == 400)
        #expect(response.resultCode == nil)
    }

    @Test("A body over 1 MiB is 413; exactly 1 MiB is a protocol answer")
    func bodyLimit() throws {
        let fixture = try LegacyFixture(over: .socket)
        let prefix =
            Array(
                FormEncoding.encode(
                    fixture.credentials + parameters(["action": "add", "date": "2026-11-29"])
                ).utf8) + Array("&content=".utf8)
        let exact = prefix + [UInt8](repeating: UInt8(ascii: "a"), count: (1 << 20) - prefix.count)
        let atLimit = try fixture.post(body: exact, on: fixture.newClient())
        #expect(atLimit.status == 200)
        #expect(atLimit.resultCode == -8)  // a protocol answer: the content is too long
        // Announced by Content-Length: refused before the body is sent.
        let client = try RawHTTPClient(port: fixture.server.port)
        _ = client.write(
            "POST /mynotes/webservice.php HTTP/1.1\r\nHost: t\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \((1 << 20) + 1)\r\n\r\n"
        )
        let announced = try client.readResponse()
        #expect(announced.status == 413)
        #expect(announced.resultCode == nil)
        // Sent chunked, without a length: refused when it grows too large.
        let chunked = try RawHTTPClient(port: fixture.server.port)
        var request = Array(
            "POST /mynotes/webservice.php HTTP/1.1\r\nHost: t\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n"
                .utf8)
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 16)
        for _ in 0..<17 { request += Array("10000\r\n".utf8) + chunk + Array("\r\n".utf8) }
        request += Array("0\r\n\r\n".utf8)
        _ = chunked.write(request)
        let streamed = try chunked.readResponse()
        #expect(streamed.status == 413)
    }

    @Test("A chunked POST body is read like any other")
    func chunkedBody() throws {
        let fixture = try LegacyFixture(over: .socket)
        let body = FormEncoding.encode(
            fixture.credentials
                + parameters(["action": "add", "date": "2026-11-29", "content": "chunked"]))
        let half = body.index(body.startIndex, offsetBy: body.count / 2)
        let chunks = [String(body[..<half]), String(body[half...])].map {
            String($0.utf8.count, radix: 16) + "\r\n" + $0 + "\r\n"
        }
        let response = try fixture.socket.send(
            "POST /mynotes/webservice.php HTTP/1.1\r\nHost: t\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n" + chunks.joined() + "0\r\n\r\n")
        #expect(response.resultCode == 0)
        #expect(try fixture.notes().map(\.content) == ["chunked"])
    }

    @Test("A POST that waits for 100 Continue gets it, then its answer")
    func expectContinue() throws {
        let fixture = try LegacyFixture(over: .socket)
        let body = FormEncoding.encode(
            fixture.credentials
                + parameters(["action": "add", "date": "2026-11-29", "content": "continued"]))
        _ = fixture.socket.write(
            "POST /mynotes/webservice.php HTTP/1.1\r\nHost: t\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\n"
                + "Content-Length: \(body.utf8.count)\r\nExpect: 100-continue\r\n\r\n")
        let interim = try fixture.socket.readResponse(expectBody: false)
        #expect(interim.status == 100)
        _ = fixture.socket.write(body)
        let response = try fixture.socket.readResponse()
        #expect(response.status == 200)
        #expect(response.resultCode == 0)
        #expect(try fixture.notes().map(\.content) == ["continued"])
    }

    /// A query of the account's credentials, padded so that the request line
    /// (`GET target HTTP/1.1`) is `length` bytes.
    static func paddedTarget(_ fixture: LegacyFixture, requestLine length: Int) -> String {
        let target =
            "/mynotes/webservice.php?"
            + FormEncoding.encode(fixture.credentials + [Parameter("action", "query")]) + "&pad="
        return target
            + String(repeating: "a", count: length - target.utf8.count - "GET  HTTP/1.1".utf8.count)
    }

    @Test("A request line over 64 KiB is 414; one of 64 KiB is answered")
    func requestLineLimit() throws {
        let fixture = try LegacyFixture(over: .socket)
        let answered = try fixture.send(target: Self.paddedTarget(fixture, requestLine: 64 << 10))
        #expect(answered.status == 200)
        #expect(answered.resultCode == 0)
        let over = Self.paddedTarget(fixture, requestLine: (64 << 10) + 16)
        let refused = try fixture.send(target: over, on: fixture.newClient())
        #expect(refused.status == 414)
        #expect(refused.resultCode == nil)
    }

    static func padHeaders(totalBytes: Int) -> [String] {
        // Each "X-Pad-NN: value" counts name, value and ": " plus CRLF.
        let count = totalBytes / 1000
        return (0..<count).map { index in
            let name = "X-Pad-\(index < 10 ? "0" : "")\(index)"
            return "\(name): " + String(repeating: "h", count: 1000 - name.utf8.count - 4)
        }
    }

    @Test("Headers over 16 KiB in all are 431; 15 KiB are fine")
    func headerLimit() throws {
        let fixture = try LegacyFixture(over: .socket)
        let query = [Parameter("action", "query")]
        #expect(
            try fixture.get(query, headers: Self.padHeaders(totalBytes: 15_000)).resultCode == 0)
        let target = "/mynotes/webservice.php?" + FormEncoding.encode(fixture.credentials + query)
        let refused = try fixture.send(
            target: target, headers: Self.padHeaders(totalBytes: 17_000), on: fixture.newClient())
        #expect(refused.status == 431)
        #expect(refused.resultCode == nil)
    }

    @Test("The longest request line and nearly 16 KiB of headers together are answered")
    func bothLimitsAtOnce() throws {
        let fixture = try LegacyFixture(over: .socket)
        let response = try fixture.send(
            target: Self.paddedTarget(fixture, requestLine: 64 << 10),
            headers: Self.padHeaders(totalBytes: 15_000))
        #expect(response.status == 200)
        #expect(response.resultCode == 0)
        // And again on the same connection, which must have room for a second one.
        let again = try fixture.send(
            target: Self.paddedTarget(fixture, requestLine: 64 << 10),
            headers: Self.padHeaders(totalBytes: 15_000))
        #expect(again.resultCode == 0)
    }

    @Test(
        "A store failure at a step that needs the store is -3",
        arguments: [
            (FailingStore.Step.notes, parameters(["action": "query"]), -3),
            (.notes, parameters(["action": "add", "date": "2026-11-29", "content": "x"]), -3),
            (
                .notes,
                parameters(["action": "modify", "id": "1", "date": "2026-11-29", "content": "x"]),
                -3
            ),
            (.notes, parameters(["action": "remove", "id": "1"]), -3),
            (.accountLookup, parameters(["action": "query"]), -3),
            (.accountLookup, parameters(["action": "remove"]), -3),
            // Checks that need no store still answer first.
            (.notes, parameters(["action": "modify"]), -4),
            (.notes, parameters(["action": "add", "content": "x"]), -6),
            (.notes, parameters(["action": "add", "content": "x", "date": "bad"]), -8),
            (.accountLookup, parameters(["action": "bogus"]), -8),
            (.notes, parameters(["action": "remove", "id": "abc"]), -7),
        ])
    func storeFailure(step: FailingStore.Step, request: [Parameter], expected: Int) throws {
        let server = try TestServer(.init(threads: 1, failing: [step]))
        defer { server.shutdown() }
        let token = try server.createAccount(email: "ann@example.com")
        let client = try RawHTTPClient(port: server.port)
        let query = FormEncoding.encode(
            parameters(["email": "ann@example.com", "token": token]) + request)
        let response = try client.send(
            "GET /mynotes/webservice.php?\(query) HTTP/1.1\r\nHost: t\r\nAccept-Language: zh\r\n\r\n"
        )
        #expect(response.resultCode == expected)
        if expected == -3 {
            #expect(response.document == #"{"ResultCode":-3,"Message":"数据访问失败。"}"#)
            let xml = try client.send(
                "GET /mynotes/webservice.php?\(query)&type=xml HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(
                xml.text.contains(
                    "<ResultCode>-3</ResultCode><Message>Data access failed.</Message>"))
        }
    }
}
