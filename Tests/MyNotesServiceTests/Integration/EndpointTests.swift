import MyNotesTesting
import Testing

/// docs/PROTOCOL.md, "Endpoint": paths, methods, HEAD.
@Suite("Endpoint")
struct EndpointTests {
    static let paths = [
        "/mynotes/webservice.php", "/service/mynotes/webservice.php",
        "/service/mynotes/WebService.php", "/MyNotes/WebService.php", "/MYNOTES/WEBSERVICE.PHP",
        "/Service/MyNotes/webservice.PHP",
    ]

    @Test("Both paths answer in any case, by GET and by POST", arguments: paths)
    func bothPaths(path: String) throws {
        let fixture = try LegacyFixture()
        let get = try fixture.get([Parameter("action", "query")], path: path)
        #expect(get.status == 200)
        #expect(get.document == #"{"ResultCode":0,"Record":[]}"#)
        let post = try fixture.post(
            [Parameter("action", "add")] + parameters(["date": "2026-11-29", "content": "x"]),
            path: path)
        #expect(post.document == #"{"ResultCode":0,"ID":"1"}"#)
    }

    @Test(
        "Other paths are not the endpoint",
        arguments: [
            "/webservice.php", "/mynotes/webservice.php/", "/mynotes/webservice",
            "/service/webservice.php", "/x/mynotes/webservice.php",
        ])
    func otherPaths(path: String) throws {
        let fixture = try LegacyFixture()
        let response = try fixture.get([Parameter("action", "query")], path: path)
        #expect(response.status == 404)
        #expect(response.resultCode == nil)
    }

    @Test(
        "Any other method is 405 with Allow: GET, HEAD, POST",
        arguments: ["PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "PROPFIND", "BREW"],
        ["/mynotes/webservice.php", "/service/mynotes/WebService.php"])
    func otherMethods(method: String, path: String) throws {
        let fixture = try LegacyFixture()
        let query = FormEncoding.encode(fixture.credentials + [Parameter("action", "add")])
        let response = try fixture.send(
            method, target: "\(path)?\(query)", body: Array("date=2026-11-29&content=x".utf8))
        #expect(response.status == 405)
        #expect(response.header("Allow") == "GET, HEAD, POST")
        #expect(try fixture.notes().isEmpty)
    }

    @Test(
        "HEAD with action=query is answered as the GET, without a body",
        arguments: ["JSON", "XML", "bogus"])
    func headQuery(type: String) throws {
        // Given an account with a note,
        let fixture = try LegacyFixture(over: .socket)
        try fixture.add("Buy milk")
        let query = FormEncoding.encode(
            fixture.credentials + parameters(["action": "QUERY", "type": type]))
        let target = "\(LegacyFixture.defaultPath)?\(query)"
        let get = try fixture.send("GET", target: target)
        // when the same request is sent by HEAD,
        let head = try fixture.send("HEAD", target: target)
        // then status and headers are the GET's, and no body follows (the next
        // answer on the same connection is read cleanly).
        #expect(head.status == 200)
        #expect(head.header("Content-Type") == get.header("Content-Type"))
        #expect(head.header("Content-Length") == get.header("Content-Length"))
        #expect(try fixture.send("GET", target: target).body == get.body)
    }

    @Test(
        "HEAD with any other action is 405 and changes nothing",
        arguments: ["add", "modify", "remove", "ADD", "", "bogus", nil])
    func headOtherActions(action: String?) throws {
        let fixture = try LegacyFixture()
        let id = try fixture.add("keep me")
        let request =
            fixture.credentials
            + parameters(["id": id, "date": "2030-01-01", "content": "changed"])
            + (action.map { [Parameter("action", $0)] } ?? [])
        let target = "\(LegacyFixture.defaultPath)?\(FormEncoding.encode(request))"
        let head = try fixture.send("HEAD", target: target)
        #expect(head.status == 405)
        #expect(head.header("Allow") == "GET, HEAD, POST")
        #expect(try fixture.notes() == [.init(id: id, date: "2026-11-29", content: "keep me")])
    }

    @Test("Requests on one keep-alive connection are answered in turn")
    func keepAlive() throws {
        let fixture = try LegacyFixture(over: .socket)
        for index in 1...5 {
            #expect(try fixture.add("note \(index)") == String(index))
        }
        #expect(try fixture.notes().count == 5)
    }
}
