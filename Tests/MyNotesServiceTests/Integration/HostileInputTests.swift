import Foundation
import MyNotesTesting
import Testing

/// Requests built to hurt: huge parameter counts, broken bytes, oversized bodies. Each
/// gets the documented answer, and the server goes on serving.
@Suite("Hostile input")
struct HostileInputTests {
    static let filler = (0..<10_000).map { Parameter("p\($0)", "v\($0)") }

    @Test("1,000 parameters in a GET are read, and the protocol's own still count")
    func aThousandInAQuery() throws {
        let fixture = try LegacyFixture(over: .socket)
        _ = try fixture.add("survives")
        let many = [Parameter](repeating: Parameter("x", "1"), count: 1_000)
        let reply = try fixture.get(many + [Parameter("action", "query")]).reply()
        #expect(reply.resultCode == 0)
        #expect(reply.record?.map(\.content) == ["survives"])
    }

    /// A target of 10,000 parameters (about 40 KiB) is within the 64 KiB limit: it is read
    /// and answered like any other, and nothing else waits for it. (The earlier server kept
    /// the parameters in a fixed per-connection memory and, past about 1,400, closed the
    /// connection without an answer.)
    @Test("10,000 parameters in a GET are answered, and others are served meanwhile")
    func tenThousandInAQueryAreAnswered() throws {
        let fixture = try LegacyFixture(over: .socket)
        let hostile = try RawHTTPClient(port: fixture.server.port, timeoutSeconds: 30)
        let many = [Parameter](repeating: Parameter("x", "1"), count: 10_000)
        hostile.write(
            "GET /mynotes/webservice.php?\(FormEncoding.encode(many)) HTTP/1.1\r\nHost: t\r\n\r\n")
        // Served meanwhile: a query that waited for it would run into the client's receive
        // timeout and fail.
        for _ in 0..<20 {
            #expect(try fixture.get([Parameter("action", "query")]).reply().resultCode == 0)
        }
        #expect(try hostile.readResponse().status == 200)
    }

    @Test("10,000 longer parameters make a GET over 64 KiB: 414, and the server keeps serving")
    func tenThousandTooLongForAQuery() throws {
        let fixture = try LegacyFixture(over: .socket)
        let response = try fixture.get(
            query: FormEncoding.encode(fixture.credentials + Self.filler), headers: [])
        #expect(response.status == 414)
        let next = try fixture.newClient()
        #expect(try fixture.send(target: "/mynotes/webservice.php", on: next).status == 200)
    }

    @Test("10,000 parameters in a POST body are read: the last content wins")
    func tenThousandInABody() throws {
        let fixture = try LegacyFixture(over: .socket)
        let parameters =
            [Parameter("content", "first")] + Self.filler
            + [
                Parameter("action", "add"), Parameter("date", "2026-11-29"),
                Parameter("content", "last"),
            ]
        let reply = try fixture.post(parameters).reply()
        #expect(reply.resultCode == 0)
        #expect(try fixture.notes().map(\.content) == ["last"])
    }

    @Test("One parameter in 1,000 that is not UTF-8 makes the request invalid (-8)")
    func oneBrokenAmongTenThousand() throws {
        let fixture = try LegacyFixture(over: .socket)
        let query =
            FormEncoding.encode(
                fixture.credentials + [Parameter](repeating: Parameter("x", "1"), count: 999)
                    + [Parameter("action", "query")])
            + "&p500=%C3%28"
        let reply = try fixture.get(query: query).reply()
        #expect(reply.resultCode == -8)
        // And the server still answers the next request on the same connection.
        #expect(try fixture.get([Parameter("action", "query")]).reply().resultCode == 0)
    }

    @Test("A 10 MB body is refused with 413 and the server keeps serving")
    func tenMegabytes() throws {
        let fixture = try LegacyFixture(over: .socket)
        let prefix = Array(
            (FormEncoding.encode(fixture.credentials + [Parameter("action", "add")]) + "&content=")
                .utf8)
        let body = prefix + [UInt8](repeating: UInt8(ascii: "x"), count: 10_000_000)
        let response = try fixture.post(body: body, on: try fixture.newClient())
        #expect(response.status == 413)
        #expect(try fixture.get([Parameter("action", "query")]).reply().resultCode == 0)
    }
}
