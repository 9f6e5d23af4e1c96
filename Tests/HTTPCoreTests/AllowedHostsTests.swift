import HTTPCore
import MyNotesTesting
import Testing

/// DNS rebinding: a server answers only the `Host` names it is reached by.
@Suite struct AllowedHostsTests {
    static let loopback = AllowedHosts.defaults(listeningOn: "127.0.0.1")

    @Test(arguments: [
        "localhost", "localhost:8080", "LocalHost", "localhost.", "localhost.:80", "127.0.0.1",
        "127.0.0.1:65535", "[::1]", "[::1]:8080",
    ])
    func theDefaultsAdmitTheLoopbackNames(host: String) {
        #expect(Self.loopback.admits(host: host))
    }

    @Test(arguments: [
        "evil.example", "evil.example:8080", "localhost.evil.example", "127.0.0.1.nip.io",
        "localhostx", "127.0.0.2", "[::2]", "::1", "localhost:80@evil.example", "localhost:x",
        "localhost:123456", "local host", "", ":8080", "[::1", "[::1]x", "*",
    ])
    func theDefaultsRefuseEveryOtherName(host: String) {
        #expect(!Self.loopback.admits(host: host))
    }

    @Test func aRequestWithoutHostNamesNothingToRefuse() {
        #expect(Self.loopback.admits(host: nil))
    }

    @Test func aNameWithAPortAdmitsOnlyThatPort() throws {
        let hosts = try #require(AllowedHosts(["notes.example.com:443", "Other.example"]))
        #expect(hosts.admits(host: "NOTES.example.com:443"))
        #expect(!hosts.admits(host: "notes.example.com:80"))
        #expect(!hosts.admits(host: "notes.example.com"))
        #expect(hosts.admits(host: "other.example:1"))
        #expect(!hosts.admits(host: "localhost"))
        #expect(hosts.description == "notes.example.com:443,other.example")
    }

    @Test func theDefaultsNameTheListenAddressAndThePublicHost() {
        let hosts = AllowedHosts.defaults(listeningOn: "192.0.2.7", publicHost: "notes.example.com")
        #expect(hosts.description == "127.0.0.1,192.0.2.7,[::1],localhost,notes.example.com")
        #expect(AllowedHosts.defaults(listeningOn: "::1").admits(host: "[::1]:1"))
        #expect(AllowedHosts.defaults(listeningOn: "fe80::1").admits(host: "[FE80::1]:1"))
        // A wildcard address is no name a client uses.
        #expect(!AllowedHosts.defaults(listeningOn: "0.0.0.0").admits(host: "0.0.0.0"))
    }

    @Test func aStarAdmitsEveryHost() throws {
        let hosts = try #require(AllowedHosts(["localhost", "*"]))
        #expect(hosts == .any)
        #expect(hosts.admits(host: "evil.example"))
        #expect(hosts.description == "*")
    }

    @Test(arguments: [[""], ["a b"], ["*.example.com"], ["x:port"], ["[zz]"], ["a/b"]])
    func refusesListsThatAreNoHostNames(names: [String]) {
        #expect(AllowedHosts(names) == nil)
    }

    /// Over HTTP: refused with 421 before the body is read, and the connection closed.
    @Test func answersOtherHosts421AndCloses() throws {
        let server = try HTTPServer.onLoopback(Self.router) { $0.allowedHosts = Self.loopback }
        let client = try RawHTTPClient(port: server.port)
        let response = try client.send(
            "POST /ok HTTP/1.1\r\nHost: rebound.example:\(server.port)\r\nContent-Length: 100\r\n"
                + "Expect: 100-continue\r\n\r\n")
        #expect(response.status == 421)
        #expect(response.text == "421 Misdirected Request\n")
        #expect(client.isClosedByServer())
    }

    @Test(arguments: [
        ("GET /ok HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n", 200),
        ("GET /ok HTTP/1.1\r\nHost: localhost:%d\r\n\r\n", 200),
        ("GET /ok HTTP/1.1\r\nHost: [::1]:%d\r\n\r\n", 200),
        ("GET /ok HTTP/1.0\r\n\r\n", 200),
        ("GET /ok HTTP/1.1\r\n\r\n", 400),
        ("GET /ok HTTP/1.1\r\nHost: localhost\r\nHost: localhost\r\n\r\n", 400),
        ("GET /ok HTTP/1.1\r\nHost: evil.example\r\n\r\n", 421),
        ("GET /ok HTTP/1.1\r\nHost: localhost.evil.example:%d\r\n\r\n", 421),
    ])
    func checksTheHostOverHTTP(template: String, status: Int) throws {
        let server = try HTTPServer.onLoopback(Self.router) { $0.allowedHosts = Self.loopback }
        let request = template.replacingOccurrences(of: "%d", with: String(server.port))
        #expect(try RawHTTPClient(port: server.port).send(request).status == status)
    }

    static var router: Router {
        var router = Router()
        router.on("/ok", methods: [.get, .post]) { _, _ in
            HTTPResponse(status: .ok, contentType: "text/plain", body: Array("ok".utf8))
        }
        return router
    }
}
