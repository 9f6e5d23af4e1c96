import Foundation
import HTTPCore
import MyNotesDomain
import MyNotesTesting
import Testing

@testable import MyNotesService

/// Loading the files once, their validators, and the bundle the server finds them in.
@Suite("Web asset catalog")
struct WebAssetCatalogTests {
    @Test("The bundled catalog holds exactly the files of the source tree, byte for byte")
    func bundledMatchesSources() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: SourceAssets.directory.path)
            .filter { !$0.hasPrefix(".") }.sorted()
        #expect(WebAssetCatalog.bundled.names == names)
        for name in names {
            #expect(WebAssetCatalog.bundled[name]?.body == (try SourceAssets.bytes(name)))
        }
    }

    @Test("The ETag follows the bytes: same bytes, same tag; one byte more, another")
    func etagFollowsContent() {
        let a = WebAsset(name: "a.js", body: Array("let x = 1;".utf8))
        let b = WebAsset(name: "b.js", body: Array("let x = 1;".utf8))
        let c = WebAsset(name: "a.js", body: Array("let x = 12;".utf8))
        #expect(a.etag == b.etag)
        #expect(a.etag != c.etag)
        #expect(a.etag.count == 34)
    }

    @Test(
        "Content types by extension; unknown kinds are opaque bytes",
        arguments: [
            ("index.html", "text/html; charset=utf-8"), ("x.CSS", "text/css; charset=utf-8"),
            ("app.js", "text/javascript; charset=utf-8"), ("i.svg", "image/svg+xml"),
            ("README", "application/octet-stream"), ("x.exe", "application/octet-stream"),
        ])
    func contentTypes(name: String, type: String) {
        #expect(WebAsset(name: name, body: []).contentType == type)
    }

    @Test("A catalog is read from a folder once; later changes to the files are not seen")
    func readOnce() async throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("webapp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("<p>one".utf8).write(to: folder.appendingPathComponent("index.html"))
        try Data("hidden".utf8).write(to: folder.appendingPathComponent(".DS_Store"))
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        let catalog = try WebAssetCatalog(directory: folder)
        #expect(catalog.names == ["index.html"])
        try Data("<p>two".utf8).write(to: folder.appendingPathComponent("index.html"))
        let handler = WebAppHandler(catalog: catalog)
        let response = await handler.respond(
            to: HTTPRequest(method: .get, path: "/"), context: RequestContext())
        #expect(response.body == Array("<p>one".utf8))
    }

    @Test("mynotes-server, run from the products folder, finds its bundle and serves the app")
    func serverProcessServesApp() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("webapp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try ServerProcess(
            database: "sqlite:" + folder.appendingPathComponent("notes.sqlite").path)
        defer { server.stop(signal: SIGTERM) }
        let response = try WebAppClient(port: server.port).get("/assets/app.js")
        #expect(response.status == 200)
        #expect(response.body == (try SourceAssets.bytes("app.js")))
    }
}
