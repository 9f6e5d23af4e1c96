import HTTPCore
import MyNotesTesting
import ServerLogging
import Testing

/// Every response names its request's ID, and the lines logged for it carry the same ID.
@Suite struct RequestIDMiddlewareTests {
    /// A router whose one route logs a line, behind ``RequestIDMiddleware``.
    struct Fixture {
        let router: Router
        let log = LogCapture()

        init() {
            var router = Router()
            router.add(middleware: RequestIDMiddleware(logger: Logger(sink: log.sink)))
            router.on("/hello", methods: [.get]) { _, context in
                context.logger.info("saying hello")
                return HTTPResponse(
                    status: .ok, contentType: "text/plain",
                    body: Array((context.requestID ?? "none").utf8))
            }
            self.router = router
        }

        func get(_ path: String, requestID: String? = nil) async -> HTTPResponse {
            var headers = HTTPHeaders()
            if let requestID { headers["X-Request-ID"] = requestID }
            return await router.respond(
                to: HTTPRequest(method: .get, path: path, headers: headers),
                context: RequestContext())
        }
    }

    @Test func aResponseEchoesTheIDItsLogLinesCarry() async throws {
        let fixture = Fixture()
        let response = await fixture.get("/hello")
        let id = try #require(response.headers["X-Request-ID"])
        #expect(String(decoding: response.body, as: UTF8.self) == id)
        let line = try #require(fixture.log.lines.first)
        #expect(line.hasSuffix("info saying hello request_id=\(id)"))
    }

    @Test func everyRequestGetsItsOwnID() async {
        let fixture = Fixture()
        var ids: [String] = []
        for _ in 0..<100 {
            if let id = await fixture.get("/hello").headers["X-Request-ID"] { ids.append(id) }
        }
        #expect(Set(ids).count == 100)
    }

    @Test(arguments: ["abc", "req-42_x.y:z", String(repeating: "a", count: 64)])
    func aWellFormedClientIDIsKept(id: String) async {
        #expect(await Fixture().get("/hello", requestID: id).headers["X-Request-ID"] == id)
    }

    @Test(arguments: [
        "", "has space", "line\nbreak", "quote\"", String(repeating: "a", count: 65), "备忘录",
    ])
    func anyOtherClientIDIsReplaced(id: String) async throws {
        let fixture = Fixture()
        let echoed = try #require(
            await fixture.get("/hello", requestID: id).headers["X-Request-ID"])
        #expect(echoed != id)
        #expect(!fixture.log.text.contains(id.isEmpty ? "request_id= " : id))
    }

    @Test func answersTheRouterGivesItselfCarryTheIDToo() async {
        let fixture = Fixture()
        let response = await fixture.get("/nowhere", requestID: "lost-1")
        #expect(response.status == .notFound)
        #expect(response.headers["X-Request-ID"] == "lost-1")
    }
}
