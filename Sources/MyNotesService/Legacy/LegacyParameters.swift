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

    private var values: [String: String] = [:]
    /// Whether every name and value in effect is valid UTF-8; when not, the request
    /// is answered -8 before anything else is looked at.
    private(set) var isValidUTF8 = true

    init(request: HTTPRequest) throws(Failure) {
        var merged: [[UInt8]: [UInt8]] = [:]
        if let query = request.rawQuery {
            for field in FormDecoder.decode(query) { merged[field.name] = field.value }
        }
        if request.method == .post {
            for field in try Self.bodyFields(of: request) { merged[field.name] = field.value }
        }
        values.reserveCapacity(merged.count)
        for (name, value) in merged {
            guard let name = String(validating: name, as: UTF8.self),
                let value = String(validating: value, as: UTF8.self)
            else {
                isValidUTF8 = false
                continue
            }
            values[name] = value
        }
    }

    subscript(name: String) -> String? { values[name] }

    /// The parameter, or `nil` when it is missing or empty.
    func nonEmpty(_ name: String) -> String? {
        guard let value = values[name], !value.isEmpty else { return nil }
        return value
    }

    private static func bodyFields(of request: HTTPRequest) throws(Failure) -> [FormField] {
        guard !request.body.isEmpty else { return [] }
        switch request.mediaType {
        // Old clients that forget the header mean a form: iOS sends its body that way.
        case nil, "application/x-www-form-urlencoded":
            return FormDecoder.decode(request.body)
        case "multipart/form-data":
            do {
                let decoder = try MultipartDecoder(contentType: request.headers["Content-Type"] ?? "")
                return try decoder.decode(request.body)
            } catch {
                throw .malformedBody
            }
        default:
            return []
        }
    }
}
