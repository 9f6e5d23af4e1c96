import Foundation
import HTTPCore

/// A request's JSON object body, decoded into one of the API's request types
/// (`MyNotesAPI`) after the checks every body gets: it must be `application/json`, parse,
/// be an object, and hold no member but the allowed ones. Every refusal names the member
/// at fault.
///
/// ```swift
/// let body = try JSONRequestBody.decode(APICredentials.self, request, allowed: ["email", "password"])
/// ```
///
/// The answers are `JSONSerialization`'s, which the API has always given, to the byte: a
/// syntax error anywhere, even in a member that is then refused as unknown, is "not valid
/// JSON"; of a repeated member the last counts. `JSONDecoder` differs on both
/// (it checks a value's text only when the value is decoded, and keeps the first of a
/// repeated member), so a body goes straight to it only when ``JSONPlainObject`` finds it
/// a flat object of distinct members with string values that both readers take alike;
/// any other body, rare from real clients, is read by `JSONSerialization` first. Either
/// way the member names are known before `JSONDecoder` runs, so that unknown members are
/// refused without the decoder reading the object twice.
enum JSONRequestBody {
    /// The body as `Body`; `missing` is the problem for a required member left out.
    static func decode<Body: Decodable>(
        _ type: Body.Type, _ request: HTTPRequest, allowed: Set<String>,
        missing: (String) -> RESTProblem = { name in
            RESTProblem(.unprocessableContent, code: .invalidParameter, .missingField(name))
        }
    ) throws(RESTProblem) -> Body {
        guard let mediaType = request.mediaType,
            mediaType == "application/json" || mediaType.hasSuffix("+json")
        else {
            throw RESTProblem(.unsupportedMediaType, code: .invalidParameter, .unsupportedMediaType)
        }
        let (names, json) = try plainOrRewritten(request.body)
        // The first in sorted order, so that the answer does not depend on the order the
        // client wrote the members in.
        if let unknown = names.filter({ !allowed.contains($0) }).sorted().first {
            throw .badRequest(.unknownField(unknown))
        }
        do {
            return try JSONDecoder().decode(Body.self, from: json)
        } catch DecodingError.keyNotFound(let key, _) {
            throw missing(key.stringValue)
        } catch DecodingError.typeMismatch(let expected, let context),
            DecodingError.valueNotFound(let expected, let context)
        {
            guard let member = context.codingPath.first else { throw .badRequest(.notAnObject) }
            throw .badRequest(
                .wrongType(field: member.stringValue, expected: jsonType(of: expected)))
        } catch {
            throw .badRequest(.malformedJSON)
        }
    }

    /// The object's member names and JSON that `JSONDecoder` reads as `JSONSerialization`
    /// did: the body itself when it is plain, else what `JSONSerialization` made of it,
    /// written out again (valid, one member per name, the last of a repeated one).
    private static func plainOrRewritten(
        _ body: [UInt8]
    ) throws(RESTProblem) -> (names: [String], json: Data) {
        if let names = JSONPlainObject.names(body) { return (names, Data(body)) }
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(
                with: Data(body), options: [.fragmentsAllowed])
        } catch {
            throw .badRequest(.malformedJSON)
        }
        guard let object = parsed as? [String: Any] else { throw .badRequest(.notAnObject) }
        guard let rewritten = try? JSONSerialization.data(withJSONObject: object) else {
            throw .badRequest(.malformedJSON)
        }
        return (Array(object.keys), rewritten)
    }

    /// The JSON type a problem names for a member that should have been a `expected`.
    private static func jsonType(of expected: Any.Type) -> String {
        switch expected {
        case is Bool.Type: return "boolean"
        case is Int.Type, is Int64.Type: return "integer"
        default: return "string"
        }
    }
}
