/// Header checks that RFC 9112 requires and libmicrohttpd (in its tolerant mode)
/// leaves to us. Each one closes a way to smuggle or confuse requests.
enum HeaderValidation {
    /// Whether the header section is malformed: then the answer is a plain 400.
    static func isMalformed(_ headers: HTTPHeaders, version: String) -> Bool {
        var hosts = 0
        var contentLength: Substring?
        for (name, value) in headers {
            // A field name is a token: whitespace before the colon is forbidden (§5.1).
            if name.isEmpty || name.utf8.contains(where: { !isTokenByte($0) }) { return true }
            if name.utf8.elementsEqual("host".utf8, by: HTTPHeaders.asciiCaseInsensitive) {
                hosts += 1
            } else if name.utf8.elementsEqual(
                "content-length".utf8, by: HTTPHeaders.asciiCaseInsensitive)
            {
                // Differing lengths are how requests are smuggled (§6.3).
                let trimmed = value.trimmingCharacters(in: " \t")
                guard !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                    contentLength == nil || contentLength == trimmed
                else { return true }
                contentLength = trimmed
            }
        }
        // HTTP/1.1 needs exactly one Host (§3.2); HTTP/1.0 may have none.
        return hosts > 1 || (hosts == 0 && version != "HTTP/1.0")
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
