import Foundation
import MyNotesTesting

/// Speaks HTTP to a server's web app, one connection per request: to a ``TestServer``'s
/// router in this process, or over TCP to a port (a server process).
struct WebAppClient {
    private let connect: () throws -> any HTTPConnection

    init(_ server: TestServer) {
        connect = { try server.connect(.inProcess) }
    }

    init(port: Int) {
        connect = { try RawHTTPClient(port: port) }
    }

    /// Sends `method path` with `headers`, `Connection: close`, so that even a
    /// body-less 304 ends where the connection does.
    func send(
        _ method: String = "GET", _ path: String, headers: [(String, String)] = [],
        body: String = ""
    ) throws -> RawHTTPClient.Response {
        var request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        if !body.isEmpty { request += "Content-Length: \(body.utf8.count)\r\n" }
        request += "Connection: close\r\n\r\n" + body
        return try connect().send(request)
    }

    func get(_ path: String, headers: [(String, String)] = []) throws -> RawHTTPClient.Response {
        try send("GET", path, headers: headers)
    }
}

/// The app's files as they are in the source tree, to compare with what is served.
enum SourceAssets {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/MyNotesService/Web/Assets")

    /// Every file's name, sorted, hidden files left out (as the catalog does).
    static let names: [String] = {
        let all = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return all.filter { !$0.hasPrefix(".") }.sorted()
    }()

    /// The app's ES modules: `app.js`, the entry point, and those it imports.
    static var modules: [String] { names.filter { $0.hasSuffix(".js") } }

    /// The relative specifiers of a module's static imports (`import … from './x.js'`).
    static func imports(of module: String) throws -> [String] {
        let expression = try NSRegularExpression(
            pattern: #"^\s*import\b[^;]*?\bfrom\s*'([^']+)'"#,
            options: [.anchorsMatchLines, .dotMatchesLineSeparators])
        let source = try text(module)
        let range = NSRange(source.startIndex..., in: source)
        return expression.matches(in: source, range: range).compactMap {
            Range($0.range(at: 1), in: source).map { String(source[$0]) }
        }
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    static func text(_ name: String) throws -> String {
        String(decoding: try bytes(name), as: UTF8.self)
    }
}
