import Foundation
import MyNotesTesting
import Testing

/// The HTTP hardening, against `mynotes-server serve` as users run it: the Host
/// check and its flags, the raw path, `nosniff`, and a smuggling attempt.
@Suite struct HTTPHardeningProcessTests {
    static let query = "/mynotes/webservice.php?action=query&email=a@x.org"

    func get(_ target: String, host: String, port: Int) throws -> RawHTTPClient.Response {
        try RawHTTPClient(port: port).send("GET \(target) HTTP/1.1\r\nHost: \(host)\r\n\r\n")
    }

    @Test func answersItsOwnNamesAndRefusesOthersWith421() throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let server = try ServerProcess(
            database: database.location, arguments: ["--legacy-email-auth"])
        defer { server.stop(signal: SIGTERM) }
        for host in [
            "127.0.0.1:\(server.port)", "localhost:\(server.port)", "[::1]:\(server.port)",
        ] {
            let answer = try get(Self.query, host: host, port: server.port)
            #expect(answer.status == 200, "\(host)")
            #expect(answer.header("X-Content-Type-Options") == "nosniff")
        }
        // A page on a rebound name reaches the loopback server, and is refused.
        let rebound = try get(Self.query, host: "rebound.example:\(server.port)", port: server.port)
        #expect(rebound.status == 421)
        #expect(rebound.header("X-Content-Type-Options") == "nosniff")
    }

    @Test(arguments: [
        (["--allowed-hosts", "*"], "rebound.example", 200),
        (["--public-url", "https://notes.example.com/"], "notes.example.com", 200),
        (["--public-url", "https://notes.example.com/"], "localhost", 200),
        (["--public-url", "https://notes.example.com/"], "rebound.example", 421),
        (["--allowed-hosts", "notes.example.com:443"], "notes.example.com:443", 200),
        (["--allowed-hosts", "notes.example.com:443"], "notes.example.com:80", 421),
        (["--allowed-hosts", "notes.example.com, api.example.com"], "api.example.com", 200),
        (["--allowed-hosts", "notes.example.com"], "localhost", 421),
    ])
    func takesItsNamesFromTheFlags(arguments: [String], host: String, status: Int) throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let server = try ServerProcess(
            database: database.location, arguments: ["--legacy-email-auth"] + arguments)
        defer { server.stop(signal: SIGTERM) }
        #expect(try get(Self.query, host: host, port: server.port).status == status)
    }

    @Test(arguments: [
        (["--public-url", "ftp://notes.example.com"], "option '--public-url' must be an http"),
        (["--public-url", "notes.example.com"], "option '--public-url' must be an http"),
        (["--allowed-hosts", ""], "option '--allowed-hosts' must list host names"),
        (["--allowed-hosts", "a,,b"], "option '--allowed-hosts' must list host names"),
        (["--allowed-hosts", "*.example.com"], "option '--allowed-hosts' must list host names"),
    ])
    func refusesFlagsThatNameNoHost(arguments: [String], message: String) throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let result = try CommandRunner.run(
            "mynotes-server", ["serve", "--port", "0", "--database", database.location] + arguments)
        #expect(result.status == 2)
        #expect(result.standardError.hasPrefix("mynotes-server: \(message)"))
    }

    @Test func routesTheRawPathAndRefusesSmuggling() throws {
        let database = try TemporaryDatabase()
        defer { database.remove() }
        let server = try ServerProcess(
            database: database.location, arguments: ["--legacy-email-auth"])
        defer { server.stop(signal: SIGTERM) }
        let host = "127.0.0.1:\(server.port)"
        // A front proxy's rule on /mynotes/ cannot be walked around with an encoded slash.
        let encoded = try get(
            "/mynotes%2fwebservice.php?action=query&email=a@x.org", host: host, port: server.port)
        #expect(encoded.status == 404)
        #expect(encoded.header("X-Content-Type-Options") == "nosniff")
        #expect(try get(Self.query, host: host, port: server.port).status == 200)
        // Content-Length and Transfer-Encoding together: 400, and the rest is not run.
        let client = try RawHTTPClient(port: server.port)
        client.write(
            "POST /mynotes/webservice.php HTTP/1.1\r\nHost: \(host)\r\nContent-Length: 4\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
                + "GET \(Self.query)&action=add HTTP/1.1\r\nHost: \(host)\r\n\r\n")
        #expect(try client.readResponse().status == 400)
        #expect(client.isClosedByServer())
    }
}
