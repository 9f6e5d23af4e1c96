import Foundation
import MyNotesTesting
import Testing

/// A temporary folder for one test (database, certificates, logs), and the outside
/// programs the operations tests check the server with.
struct OperationsFixture {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("mynotes-operations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    var databasePath: String { path("notes.sqlite") }
    var location: String { "sqlite:" + databasePath }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Creates an account with the command and returns its token.
    func createAccount(_ email: String) throws -> String {
        let result = try CommandRunner.run(
            "mynotes-server", ["accounts", "add", email, "--database", location])
        try #require(result.status == 0, "accounts add: \(result.standardError)")
        return try #require(result.outputLines.last)
    }

    /// A self-signed certificate for localhost and 127.0.0.1 and its key, made by openssl.
    func makeCertificate(named name: String, commonName: String) throws -> (
        certificate: String, key: String
    ) {
        let certificate = path(name + ".pem")
        let key = path(name + "-key.pem")
        let result = try Tools.run(
            "openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                "-nodes", "-keyout", key, "-out", certificate, "-days", "2", "-subj",
                "/CN=\(commonName)", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
            ])
        try #require(result.status == 0, "openssl req: \(result.standardError)")
        return (certificate, key)
    }
}

/// The programs outside Swift that the tests use as real consumers.
enum Tools {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `name` on the usual system paths, or `nil` when it is not installed.
    static func find(_ name: String) -> URL? {
        for directory in ["/usr/bin", "/usr/sbin", "/bin", "/usr/local/bin"] {
            let url = URL(fileURLWithPath: directory).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }

    /// The venv of scripts/operations-tools.sh, with prometheus-client.
    static var python: URL? {
        let url = packageRoot.appendingPathComponent(".build/venv-operations/bin/python")
        return FileManager.default.isExecutableFile(atPath: url.path) ? url : nil
    }

    static func run(
        _ name: String, _ arguments: [String], input: String? = nil
    ) throws -> CommandRunner.Result {
        let executable = try #require(find(name), "\(name) is not installed")
        return try CommandRunner.run(executable: executable, arguments, input: input)
    }

    /// Parses a scrape with prometheus-client's own parser: every sample as
    /// `name{label="value",…}` (labels sorted) to its value.
    static func parseExposition(_ text: String) throws -> [String: Double] {
        let python = try #require(python, "run scripts/operations-tools.sh first")
        let script = """
            import json, sys
            from prometheus_client.parser import text_string_to_metric_families
            samples = {}
            for family in text_string_to_metric_families(sys.stdin.read()):
                for s in family.samples:
                    labels = ",".join(f'{k}="{v}"' for k, v in sorted(s.labels.items()))
                    samples[s.name + ("{" + labels + "}" if labels else "")] = s.value
            print(json.dumps(samples))
            """
        let result = try CommandRunner.run(executable: python, ["-c", script], input: text)
        try #require(result.status == 0, "prometheus-client: \(result.standardError)")
        let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
        return try #require(object as? [String: Double])
    }
}

/// One plain HTTP/1.1 request on a new connection.
func httpRequest(
    port: Int, _ target: String, method: String = "GET", headers: [String: String] = [:],
    body: String = ""
) throws -> RawHTTPClient.Response {
    var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    if !body.isEmpty {
        head += "Content-Type: application/x-www-form-urlencoded\r\n"
        head += "Content-Length: \(body.utf8.count)\r\n"
    }
    return try RawHTTPClient(port: port).send(head + "\r\n" + body)
}
