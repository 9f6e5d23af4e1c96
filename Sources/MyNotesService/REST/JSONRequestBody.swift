import Foundation
import HTTPCore

/// A request's JSON object body, checked before any field is used: it must be
/// `application/json`, parse, be an object, and hold no field but the allowed ones.
/// Fields are then read by name with their type checked, and every refusal names
/// the field at fault.
///
/// ```swift
/// let body = try JSONRequestBody(request, allowed: ["content", "date"])
/// let content = try body.string("content")  // nil when absent; 400 when not a string
/// ```
struct JSONRequestBody {
    private let object: [String: Any]

    init(_ request: HTTPRequest, allowed: Set<String>) throws(RESTProblem) {
        guard let mediaType = request.mediaType,
            mediaType == "application/json" || mediaType.hasSuffix("+json")
        else {
            throw RESTProblem(.unsupportedMediaType, code: .invalidParameter, .unsupportedMediaType)
        }
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(
                with: Data(request.body), options: [.fragmentsAllowed])
        } catch {
            throw .badRequest(.malformedJSON)
        }
        guard let object = parsed as? [String: Any] else { throw .badRequest(.notAnObject) }
        if let unknown = object.keys.filter({ !allowed.contains($0) }).sorted().first {
            throw .badRequest(.unknownField(unknown))
        }
        self.object = object
    }

    /// The string field `name`, or `nil` when absent. `null` and other types are refused.
    func string(_ name: String) throws(RESTProblem) -> String? {
        guard let value = object[name] else { return nil }
        guard let text = value as? String, !(value is NSNumber) else {
            throw .badRequest(.wrongType(field: name, expected: "string"))
        }
        return text
    }

    /// The string field `name`, which must be present.
    func requiredString(_ name: String, missing code: RESTProblem? = nil) throws(RESTProblem)
        -> String
    {
        guard let text = try string(name) else {
            throw code
                ?? RESTProblem(.unprocessableContent, code: .invalidParameter, .missingField(name))
        }
        return text
    }
}
