import HTTPCore

/// Serves the browser app: `GET /` is `index.html`, `GET /assets/{name}` the rest.
///
/// Every answer carries the security headers: a Content-Security-Policy that allows
/// only this origin's own script and style files (no inline script or style, no
/// `eval`, Trusted Types enforced so no string can reach an HTML sink), `nosniff`, no
/// referrer and no framing. Files are revalidated on every use (`no-cache`) against a
/// strong `ETag`, so an upgraded server is picked up at once and an unchanged file
/// costs a `304`.
///
/// ```swift
/// var router = Router()
/// WebAppHandler(catalog: .bundled).register(on: &router)
/// ```
public struct WebAppHandler: HTTPResponder {
    static let methods: [HTTPMethod] = [.get, .head]
    static let indexPath = "/"
    static let assetPattern = "/assets/{name}"

    /// The policy for the app's pages. `form-action 'none'`: the forms are submitted by
    /// script, so if the script never ran a form must not send a password in a URL.
    public static let contentSecurityPolicy = [
        "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self'",
        "connect-src 'self'", "base-uri 'none'", "form-action 'none'",
        "frame-ancestors 'none'", "require-trusted-types-for 'script'", "trusted-types 'none'",
    ].joined(separator: "; ")

    /// Headers on every answer, 304s and 404s included.
    public static let securityHeaders: [(name: String, value: String)] = [
        ("Content-Security-Policy", contentSecurityPolicy),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("X-Frame-Options", "DENY"),
        ("Cross-Origin-Opener-Policy", "same-origin"),
        ("Cross-Origin-Resource-Policy", "same-origin"),
    ]

    let catalog: WebAssetCatalog

    public init(catalog: WebAssetCatalog) {
        self.catalog = catalog
    }

    /// Adds the app's routes to `router`.
    public func register(on router: inout Router) {
        router.on(PathPattern(Self.indexPath), methods: Self.methods, responder: self)
        router.on(PathPattern(Self.assetPattern), methods: Self.methods, responder: self)
    }

    public func respond(to request: HTTPRequest, context: RequestContext) async -> HTTPResponse {
        let name = context.parameters["name"] ?? "index.html"
        // index.html has one address, `/`; serving it under /assets too would be a
        // second URL for the same page.
        guard let asset = catalog[name], context.parameters["name"] != "index.html" else {
            return Self.secured(.plain(.notFound))
        }
        var headers = HTTPHeaders()
        headers.add("ETag", asset.etag)
        headers.add("Cache-Control", "no-cache")
        if Self.matches(ifNoneMatch: request.headers["If-None-Match"], etag: asset.etag) {
            return Self.secured(HTTPResponse(status: .notModified, headers: headers))
        }
        headers.add("Content-Type", asset.contentType)
        return Self.secured(HTTPResponse(status: .ok, headers: headers, body: asset.body))
    }

    static func secured(_ response: HTTPResponse) -> HTTPResponse {
        var response = response
        for (name, value) in securityHeaders { response.headers[name] = value }
        return response
    }

    /// RFC 9110 §13.1.2: `*`, or any listed tag equal to ours by the weak comparison.
    static func matches(ifNoneMatch field: String?, etag: String) -> Bool {
        guard let field else { return false }
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        for candidate in field.split(separator: ",") {
            var tag = candidate.drop(while: isSpace)
            while let last = tag.last, isSpace(last) { tag.removeLast() }
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            if tag == etag { return true }
        }
        return false
    }
}
