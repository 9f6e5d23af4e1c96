import Foundation
import MyNotesDomain
import MyNotesService
import MyNotesTesting
import Testing

/// The browser app as the service answers it, through its router (a server process
/// serves it over TCP in `WebAssetCatalogTests`).
@Suite("Static assets")
struct StaticAssetTests {
    /// The media type each kind of file must be served with.
    static let contentTypes = [
        "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8",
        "css": "text/css; charset=utf-8", "svg": "image/svg+xml",
    ]

    /// Every file of the source tree's Assets folder, at its address: `/` for the page,
    /// `/assets/{name}` for the rest, the modules included.
    static let assets: [(path: String, file: String, contentType: String)] =
        SourceAssets.names.map { name in
            let kind = String(name.split(separator: ".").last ?? "")
            return (
                name == "index.html" ? "/" : "/assets/\(name)", name,
                contentTypes[kind] ?? "application/octet-stream"
            )
        }

    @Test("The app's files are the page, its style, its icon and its modules")
    func files() {
        #expect(SourceAssets.names.contains("index.html"))
        #expect(SourceAssets.modules.contains("app.js"))
        #expect(SourceAssets.modules.count > 1)
        for asset in Self.assets {
            #expect(asset.contentType != "application/octet-stream", "\(asset.file)")
        }
    }

    let server: TestServer
    let client: WebAppClient

    init() throws {
        server = try TestServer()
        client = WebAppClient(server)
    }

    @Test("Each file is served whole, with its content type", arguments: assets)
    func served(asset: (path: String, file: String, contentType: String)) throws {
        let response = try client.get(asset.path)
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == asset.contentType)
        #expect(response.body == (try SourceAssets.bytes(asset.file)))
        #expect(response.header("Cache-Control") == "no-cache")
    }

    @Test("Every file has a strong, quoted ETag that is stable and its own")
    func etags() throws {
        var seen: Set<String> = []
        for asset in Self.assets {
            let first = try #require(try client.get(asset.path).header("ETag"))
            let second = try client.get(asset.path).header("ETag")
            #expect(first == second)
            #expect(first.hasPrefix("\"") && first.hasSuffix("\"") && first.count > 2)
            #expect(!first.hasPrefix("W/"))
            #expect(seen.insert(first).inserted, "\(asset.path) shares an ETag")
        }
    }

    @Test("If-None-Match with the current ETag is 304 without a body", arguments: assets)
    func notModified(asset: (path: String, file: String, contentType: String)) throws {
        let etag = try #require(try client.get(asset.path).header("ETag"))
        let forms = [etag, "W/\(etag)", "\"other\", \(etag)", "*"]
        for form in forms {
            let response = try client.get(asset.path, headers: [("If-None-Match", form)])
            #expect(response.status == 304, "If-None-Match: \(form)")
            #expect(response.body.isEmpty)
            #expect(response.header("ETag") == etag)
            #expect(response.header("Cache-Control") == "no-cache")
            #expect(response.header("Content-Security-Policy") != nil)
        }
    }

    @Test("If-None-Match with another ETag gets the file")
    func modified() throws {
        let response = try client.get("/assets/app.js", headers: [("If-None-Match", "\"stale\"")])
        #expect(response.status == 200)
        #expect(response.body == (try SourceAssets.bytes("app.js")))
    }

    @Test("HEAD answers the headers of GET without the body")
    func head() throws {
        let get = try client.get("/")
        let head = try client.send("HEAD", "/")
        #expect(head.status == 200)
        #expect(head.header("Content-Type") == "text/html; charset=utf-8")
        #expect(head.header("ETag") == get.header("ETag"))
        #expect(head.body.isEmpty)
    }

    @Test(
        "An unknown asset is 404, with the security headers",
        arguments: ["/assets/missing.js", "/assets/index.html", "/assets/APP.JS", "/assets/.x"])
    func unknownAsset(path: String) throws {
        let response = try client.get(path)
        #expect(response.status == 404)
        #expect(response.header("Content-Type") == "text/plain; charset=utf-8")
        #expect(response.header("X-Content-Type-Options") == "nosniff")
        #expect(response.header("Content-Security-Policy") == WebAppHandler.contentSecurityPolicy)
        #expect(response.header("ETag") == nil)
    }

    @Test(
        "Paths outside the app's are not served, however they are spelled",
        arguments: [
            "/assets/", "/assets/../Package.swift", "/assets/%2e%2e%2fPackage.swift",
            "/assets/..%2fPackage.swift", "/assets/app.js/x", "/index.html", "/app.js",
            "/Assets/app.js", "//assets/app.js",
        ])
    func otherPaths(path: String) throws {
        let response = try client.get(path)
        #expect(response.status == 404)
        #expect(!response.text.contains("<html"))
        #expect(!response.text.contains("swift-tools-version"))
    }

    @Test("Other methods are 405 with Allow: GET, HEAD", arguments: ["POST", "PUT", "DELETE"])
    func otherMethods(method: String) throws {
        for path in ["/", "/assets/app.js"] {
            let response = try client.send(method, path, body: "x=1")
            #expect(response.status == 405)
            #expect(response.header("Allow") == "GET, HEAD")
        }
    }
}
