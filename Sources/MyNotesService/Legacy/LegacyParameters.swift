import HTTPCore

/// The parameters of a legacy request, merged as PHP's `$_REQUEST`: the query
/// string first, then the form body, a later occurrence of a name replacing an
/// earlier one (so a body parameter wins over a query parameter).
struct LegacyParameters {
    /// Why the parameters could not be read at all.
    enum Failure: Error {
        /// A multipart body without a boundary, or cut short.
        case malformedBody
    }

    /// The names the protocol reads. Only their values are kept as strings; every
    /// other parameter is merely checked, which spares hashing each name.
    static let names = ["email", "type", "action", "id", "date", "content", "token"]
    private static let nameBytes = names.map { Array($0.utf8) }

    private var values = [String?](repeating: nil, count: names.count)
    /// Names whose value in effect is not UTF-8; a later valid value clears it.
    /// Kept as bytes, as PHP compares names: Swift's `String` equality would take
    /// a canonically equivalent name (U+212A KELVIN SIGN for `K`) for the same one
    /// and let it clear an invalid value that is still in effect.
    private var invalidValues: Set<[UInt8]> = []
    /// A name that is not UTF-8 is invalid whatever follows it.
    private var hasInvalidName = false

    /// Whether every name and value in effect is valid UTF-8; when not, the request
    /// is answered -8 before anything else is looked at.
    var isValidUTF8: Bool { !hasInvalidName && invalidValues.isEmpty }

    init(request: HTTPRequest) throws(Failure) {
        if let query = request.rawQuery { merge(FormDecoder.decode(query)) }
        if request.method == .post { merge(try Self.bodyFields(of: request)) }
    }

    private mutating func merge(_ fields: [FormField]) {
        for field in fields {
            guard Self.isUTF8(field.name) else {
                hasInvalidName = true
                continue
            }
            let slot = Self.nameBytes.firstIndex(of: field.name)
            if Self.isUTF8(field.value) {
                if let slot { values[slot] = String(decoding: field.value, as: UTF8.self) }
                if !invalidValues.isEmpty { invalidValues.remove(field.name) }
            } else {
                if let slot { values[slot] = nil }
                invalidValues.insert(field.name)
            }
        }
    }

    /// The value in effect for one of ``names``.
    subscript(name: String) -> String? {
        guard let slot = Self.names.firstIndex(of: name) else { return nil }
        return values[slot]
    }

    /// The parameter, or `nil` when it is missing or empty.
    func nonEmpty(_ name: String) -> String? {
        guard let value = self[name], !value.isEmpty else { return nil }
        return value
    }

    /// UTF-8 validity, with a fast path for ASCII, which nearly every parameter is.
    private static func isUTF8(_ bytes: [UInt8]) -> Bool {
        bytes.allSatisfy { $0 < 0x80 } || String(validating: bytes, as: UTF8.self) != nil
    }

    private static func bodyFields(of request: HTTPRequest) throws(Failure) -> [FormField] {
        guard !request.body.isEmpty else { return [] }
        switch request.mediaType {
        // Old clients that forget the header mean a form: iOS sends its body that way.
        case nil, "application/x-www-form-urlencoded":
            return FormDecoder.decode(request.body)
        case "multipart/form-data":
            do {
                let decoder = try MultipartDecoder(
                    contentType: request.headers["Content-Type"] ?? "")
                return try decoder.decode(request.body)
            } catch {
                throw .malformedBody
            }
        default:
            return []
        }
    }
}
