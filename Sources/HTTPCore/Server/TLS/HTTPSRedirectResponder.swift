/// Answers every plain-HTTP request with `308 Permanent Redirect` to the same host, path
/// and query over HTTPS (`--redirect-http PORT`). 308, not 301: a POST stays a POST.
///
/// ```swift
/// var plain = ServerConfiguration()
/// plain.port = 80
/// let redirect = try HTTPServer(configuration: plain, responder: HTTPSRedirectResponder(httpsPort: 443))
/// ```
public struct HTTPSRedirectResponder: HTTPResponder {
    let httpsPort: Int

    public init(httpsPort: Int) {
        self.httpsPort = httpsPort
    }

    public func respond(to request: HTTPRequest, context: RequestContext) async -> HTTPResponse {
        guard let host = request.headers["Host"].flatMap(Self.hostName) else {
            return .plain(.badRequest)
        }
        let authority = httpsPort == 443 ? host : "\(host):\(httpsPort)"
        let query = request.rawQuery.map { "?" + String(decoding: $0, as: UTF8.self) } ?? ""
        let path = Self.encodedPath(request.path)
        var response = HTTPResponse.plain(HTTPStatus(rawValue: 308))
        response.headers["Location"] = "https://" + authority + path + query
        return response
    }

    /// The decoded path encoded again: RFC 3986's path characters stay, others become %XX.
    static func encodedPath(_ path: String) -> String {
        let allowed = Set(
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/".utf8)
        var encoded = ""
        for byte in path.utf8 {
            if allowed.contains(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                encoded += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return encoded
    }

    /// The Host header without its port, when it is a plausible host name or address:
    /// letters, digits, `.-_:` and IPv6 brackets only, so that no one can make the server
    /// redirect to a URL of their own making.
    static func hostName(_ header: String) -> String? {
        var host = Substring(header)
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            host = host[...close]
        } else if let colon = host.firstIndex(of: ":") {
            host = host[..<colon]
        }
        let allowed = host.allSatisfy {
            $0.isASCII && ($0.isLetter || $0.isNumber || "-._:[]".contains($0))
        }
        return allowed && !host.isEmpty ? String(host) : nil
    }
}
