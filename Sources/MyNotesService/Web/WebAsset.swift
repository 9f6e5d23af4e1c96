import Secrets

/// One file of the browser app, held in memory with its validator computed once.
public struct WebAsset: Sendable {
    /// The file name, e.g. `app.js`.
    public let name: String
    /// The `Content-Type` it is served with, charset included for text.
    public let contentType: String
    public let body: [UInt8]
    /// A strong entity tag, quoted: derived from the bytes, so it changes exactly when
    /// the file does, and is the same on every server that ships the same build.
    public let etag: String

    public init(name: String, body: [UInt8]) {
        self.name = name
        self.body = body
        contentType = Self.contentType(forName: name)
        // 128 bits of SHA-256: collisions are out of reach, and the header stays short.
        let hex = SHA256.hash(body).prefix(16).map { byte in
            let digits = String(byte, radix: 16)
            return byte < 16 ? "0" + digits : digits
        }
        etag = "\"" + hex.joined() + "\""
    }

    /// The media type for a file name's extension; unknown kinds are opaque bytes, which
    /// with `nosniff` a browser will neither run nor render.
    static func contentType(forName name: String) -> String {
        let dot = name.lastIndex(of: ".").map { name[name.index(after: $0)...] } ?? ""
        switch dot.lowercased() {
        case "html": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js": return "text/javascript; charset=utf-8"
        case "svg": return "image/svg+xml"
        case "json": return "application/json; charset=utf-8"
        case "png": return "image/png"
        default: return "application/octet-stream"
        }
    }
}
