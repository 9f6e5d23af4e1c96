/// Decodes a `multipart/form-data` body (RFC 7578) into its form fields.
///
/// Parts that carry a `filename` are uploads, which PHP keeps out of `$_POST`; they are
/// skipped. Values are the part's bytes as sent: multipart needs no percent-decoding.
///
/// ```swift
/// let fields = try MultipartDecoder(contentType: "multipart/form-data; boundary=XyZ")
///     .decode(body)
/// ```
public struct MultipartDecoder: Sendable {
    /// Why a multipart body could not be read.
    public enum Failure: Error, Equatable {
        case missingBoundary
        case malformedBody
    }

    let boundary: [UInt8]

    /// Reads the boundary from a `Content-Type` header value.
    public init(contentType: String) throws(Failure) {
        var boundary: Substring?
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.trimmingCharacters(in: " \t")
            guard let equals = pair.firstIndex(of: "=") else { continue }
            if pair[..<equals].lowercased() == "boundary" {
                var value = pair[pair.index(after: equals)...]
                if value.count >= 2, value.first == "\"", value.last == "\"" {
                    value = value.dropFirst().dropLast()
                }
                boundary = value
            }
        }
        guard let boundary, !boundary.isEmpty, boundary.utf8.count <= 70 else {
            throw .missingBoundary
        }
        self.boundary = Array(boundary.utf8)
    }

    public func decode(_ body: [UInt8]) throws(Failure) -> [FormField] {
        let delimiter = Array("--".utf8) + boundary
        guard var position = body.firstRange(of: delimiter)?.upperBound else {
            throw .malformedBody
        }
        let crlf = Array("\r\n".utf8)
        let nextDelimiter = crlf + delimiter
        var fields: [FormField] = []
        while true {
            // After a delimiter: "--" closes the body, otherwise CRLF starts a part.
            if body[position...].starts(with: Array("--".utf8)) { return fields }
            // RFC 2046 lets a sender pad the delimiter line with spaces and tabs.
            while position < body.endIndex, body[position] == 0x20 || body[position] == 0x09 {
                position += 1
            }
            guard body[position...].starts(with: crlf) else { throw .malformedBody }
            position += 2
            guard let end = body[position...].firstRange(of: nextDelimiter) else {
                throw .malformedBody
            }
            let part = body[position..<end.lowerBound]
            if let field = try Self.field(in: part) { fields.append(field) }
            position = end.upperBound
        }
    }

    private static func field(in part: ArraySlice<UInt8>) throws(Failure) -> FormField? {
        let separator = Array("\r\n\r\n".utf8)
        let headerEnd: Range<Int>
        if part.starts(with: Array("\r\n".utf8)) {
            headerEnd = part.startIndex..<(part.startIndex + 2)
        } else if let range = part.firstRange(of: separator) {
            headerEnd = range
        } else {
            throw .malformedBody
        }
        // Latin-1, one character per byte, so that the name's bytes come back exactly:
        // a name that is not UTF-8 must reach the application as it was sent, to be
        // answered as invalid, not quietly repaired into U+FFFD.
        let headerText = String(part[..<headerEnd.lowerBound].map { Character(Unicode.Scalar($0)) })
        var name: String?
        var isFile = false
        for line in headerText.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            guard line[..<colon].lowercased() == "content-disposition" else { continue }
            for parameter in line[line.index(after: colon)...].split(separator: ";").dropFirst() {
                let pair = parameter.trimmingCharacters(in: " \t")
                guard let equals = pair.firstIndex(of: "=") else { continue }
                var value = pair[pair.index(after: equals)...]
                if value.count >= 2, value.first == "\"", value.last == "\"" {
                    value = value.dropFirst().dropLast()
                }
                switch pair[..<equals].lowercased() {
                case "name": name = String(value)
                case "filename": isFile = true
                default: break
                }
            }
        }
        guard let name, !name.isEmpty, !isFile else { return nil }
        let nameBytes = name.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
        return FormField(name: nameBytes, value: Array(part[headerEnd.upperBound...]))
    }
}
