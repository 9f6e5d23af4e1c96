import Foundation
import MyNotesTesting
import Testing

/// The headers that make the page safe to render notes in, and the page's own rules:
/// no inline script or style anywhere, so the strict policy can stand.
@Suite("Security headers")
struct SecurityHeaderTests {
    static let paths = StaticAssetTests.assets.map(\.path)

    let server: TestServer
    let client: WebAppClient

    init() throws {
        server = try TestServer()
        client = WebAppClient(server)
    }

    /// The policy's directives by name.
    static func directives(_ policy: String) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for directive in policy.split(separator: ";") {
            let words = directive.split(separator: " ").map(String.init)
            guard let name = words.first else { continue }
            result[name] = Array(words.dropFirst())
        }
        return result
    }

    @Test("A strict Content-Security-Policy: own files only, nothing inline", arguments: paths)
    func contentSecurityPolicy(path: String) throws {
        let policy = try #require(try client.get(path).header("Content-Security-Policy"))
        let directives = Self.directives(policy)
        #expect(directives["default-src"] == ["'none'"])
        #expect(directives["script-src"] == ["'self'"])
        #expect(directives["style-src"] == ["'self'"])
        #expect(directives["connect-src"] == ["'self'"])
        #expect(directives["img-src"] == ["'self'"])
        #expect(directives["frame-ancestors"] == ["'none'"])
        #expect(directives["base-uri"] == ["'none'"])
        #expect(directives["form-action"] == ["'none'"])
        #expect(directives["require-trusted-types-for"] == ["'script'"])
        #expect(!policy.contains("unsafe"))
        #expect(!policy.contains("*"))
    }

    @Test("nosniff, no referrer, no framing", arguments: paths)
    func otherHeaders(path: String) throws {
        let response = try client.get(path)
        #expect(response.header("X-Content-Type-Options") == "nosniff")
        #expect(response.header("Referrer-Policy") == "no-referrer")
        #expect(response.header("X-Frame-Options") == "DENY")
        #expect(response.header("Cross-Origin-Opener-Policy") == "same-origin")
        #expect(response.header("Set-Cookie") == nil)
    }

    @Test("The page has no inline script, no inline style and no inline handlers")
    func nothingInline() throws {
        let html = try client.get("/").text.lowercased()
        // Every <script> loads a file and is otherwise empty.
        var rest = Substring(html)
        var scripts = 0
        while let open = rest.range(of: "<script") {
            let close = try #require(
                rest.range(of: "</script>", range: open.upperBound..<rest.endIndex))
            let tag = rest[open.lowerBound..<close.lowerBound]
            let end = try #require(tag.firstIndex(of: ">"))
            #expect(tag[..<end].contains(" src=\"/assets/"))
            let content = tag[tag.index(after: end)...]
            #expect(content.allSatisfy { $0.isWhitespace })
            scripts += 1
            rest = rest[close.upperBound...]
        }
        #expect(scripts == 1)
        #expect(!html.contains("<style"))
        #expect(!html.contains(" style="))
        #expect(html.range(of: #"\son[a-z]+="#, options: .regularExpression) == nil)
        #expect(!html.contains("javascript:"))
    }

    @Test(
        "No module writes HTML: text goes in through textContent only",
        arguments: SourceAssets.modules)
    func scriptWritesTextOnly(module: String) throws {
        let script = try client.get("/assets/\(module)").text
        #expect(script.hasPrefix("// @ts-check\n"), "\(module) is not type-checked")
        // A module is strict by definition; the directive would be dead code.
        #expect(!script.contains("use strict"))
        for sink in [
            "innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(",
            "new Function", "setAttribute('style'", ".style.", "localStorage", "sessionStorage",
            "document.cookie",
        ] {
            #expect(!script.contains(sink), "\(module) uses \(sink)")
        }
    }

    @Test("Modules import only the app's own modules, by relative name, and all are used")
    func moduleGraph() throws {
        let modules = Set(SourceAssets.modules)
        var reached: Set<String> = ["app.js"]
        var queue = ["app.js"]
        while let module = queue.popLast() {
            for specifier in try SourceAssets.imports(of: module) {
                // Same origin and the flat folder the catalog serves: './name.js' only.
                #expect(specifier.hasPrefix("./"), "\(module) imports \(specifier)")
                let name = String(specifier.dropFirst(2))
                #expect(modules.contains(name), "\(module) imports \(specifier), not served")
                if modules.contains(name), reached.insert(name).inserted { queue.append(name) }
            }
        }
        #expect(reached == modules, "modules nothing imports: \(modules.subtracting(reached))")
        // The page preloads every module app.js imports, so the imports are no waterfall.
        let html = try client.get("/").text
        let preloaded = Set(
            Self.matches(of: #"<link rel="modulepreload" href="/assets/([^"]+)">"#, in: html))
        #expect(preloaded == modules.subtracting(["app.js"]))
    }

    @Test("Every form control has a label")
    func labels() throws {
        let html = try client.get("/").text
        let ids = Self.matches(of: #"<(?:input|textarea|select)\b[^>]*\bid="([^"]+)""#, in: html)
        #expect(ids.count >= 5)
        let labelled = Set(Self.matches(of: #"<label\b[^>]*\bfor="([^"]+)""#, in: html))
        for id in ids {
            #expect(labelled.contains(id), "#\(id) has no <label for>")
        }
    }

    static func matches(of pattern: String, in text: String) -> [String] {
        let expression = try! NSRegularExpression(pattern: pattern)
        let range = NSRange(text.startIndex..., in: text)
        return expression.matches(in: text, range: range).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }
}
