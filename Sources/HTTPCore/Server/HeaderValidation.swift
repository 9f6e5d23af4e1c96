/// Header checks that RFC 9112 requires, made on the fields as picohttpparser reports them
/// (``RequestHead``), before any body is read. Each one closes a way to smuggle or confuse requests.
///
enum HeaderValidation {
    /// Whether the header section is malformed: then the answer is a plain 400, and the
    /// connection is closed.
    static func isMalformed(_ headers: HTTPHeaders, version: String) -> Bool {
        var hosts = 0
        var contentLength: Substring?
        var transferEncodings = 0
        var isChunked = false
        for (name, value) in headers {
            // A field name is a token: whitespace before the colon is forbidden (§5.1).
            if name.isEmpty || name.utf8.contains(where: { !isTokenByte($0) }) { return true }
            // A value holds no control but HTAB (§5.5): a bare CR ends a line for some
            // parsers and not for others.
            if value.utf8.contains(where: isControlByte) { return true }
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
            } else if name.utf8.elementsEqual(
                "transfer-encoding".utf8, by: HTTPHeaders.asciiCaseInsensitive)
            {
                transferEncodings += 1
                isChunked = value.utf8.elementsEqual(
                    "chunked".utf8, by: HTTPHeaders.asciiCaseInsensitive)
            }
        }
        if transferEncodings > 0 {
            // A body is read as chunked only when the one such field is exactly
            // `chunked` (in any case), and any other coding until the connection closes,
            // answering nothing. Whatever else a proxy may frame differently: a second field,
            // a list (`gzip, chunked`, `chunked, chunked`), parameters, trailing blanks.
            // Both framings at once are the classic smuggle, and HTTP/1.0 has no transfer
            // codings: the message's framing is faulty (§6.1, §6.3).
            if transferEncodings > 1 || !isChunked || contentLength != nil
                || version == "HTTP/1.0"
            {
                return true
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

    private static func isControlByte(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != UInt8(ascii: "\t")) || byte == 0x7F
    }
}
