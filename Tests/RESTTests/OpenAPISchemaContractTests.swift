import Foundation
import MyNotesAPI
import Testing

@testable import MyNotesService

/// The OpenAPI document's schemas against the MyNotesAPI types the server and the SDK
/// share: for each schema, the type's members (a value with every optional member set)
/// are the schema's properties, each of a JSON type the schema allows, and the members
/// the type always writes (a value with no optional member set) are the schema's
/// `required`. A member added to, dropped from or retyped in one but not the other fails.
@Suite struct OpenAPISchemaContractTests {
    /// One schema and the type behind it: a value with every optional member set, one
    /// with none, and whether clients send it (request bodies refuse unknown members).
    struct Contract: Sendable, CustomTestStringConvertible {
        var schema: String
        var full: any Encodable & Sendable
        var least: any Encodable & Sendable
        var isRequest = false
        var testDescription: String { schema }
    }

    static let note = APINote(
        id: 12, date: "2026-11-29", content: "x", createdAt: "2026-11-29T08:15:30.250Z",
        updatedAt: "2026-11-29T08:15:30.250Z", snippet: "…x…")
    static let bare = APINote(
        id: 12, date: "2026-11-29", content: "x", createdAt: "2026-11-29T08:15:30.250Z",
        updatedAt: "2026-11-29T08:15:30.250Z")
    static let session = APISessionInfo(
        id: "s1", kind: "session", createdAt: "2026-11-29T08:15:30.250Z",
        lastUsedAt: "2026-11-29T08:15:30.250Z", expiresAt: "2026-12-29T08:15:30.250Z",
        current: true)
    static let change = APIChange(cursor: "17", type: "updated", id: 12, version: 3, note: note)

    static let contracts: [Contract] = [
        Contract(
            schema: "Credentials", full: APICredentials(email: "a@b.c", password: "p"),
            least: APICredentials(email: "a@b.c", password: "p"), isRequest: true),
        Contract(
            schema: "AccountCreated", full: APIAccountCreated(email: "a@b.c", token: "t"),
            least: APIAccountCreated(email: "a@b.c", token: "t")),
        Contract(
            schema: "Session", full: APISessionToken(token: "t"),
            least: APISessionToken(token: "t")),
        Contract(
            schema: "SessionInfo", full: session,
            least: APISessionInfo(
                id: "k1", kind: "accessKey", createdAt: "2026-11-29T08:15:30.250Z",
                lastUsedAt: "2026-11-29T08:15:30.250Z", expiresAt: nil, current: false)),
        Contract(
            schema: "SessionList", full: APISessionList(sessions: [session]),
            least: APISessionList(sessions: [])),
        Contract(schema: "Revoked", full: APIRevoked(revoked: 2), least: APIRevoked(revoked: 0)),
        Contract(
            schema: "PasswordChange",
            full: APIPasswordChange(currentPassword: "a", newPassword: "b"),
            least: APIPasswordChange(currentPassword: "a", newPassword: "b"), isRequest: true),
        Contract(schema: "Note", full: note, least: bare),
        Contract(
            schema: "NotePage", full: APINotePage(notes: [note], nextCursor: "c"),
            least: APINotePage(notes: [], nextCursor: nil)),
        Contract(
            schema: "Change", full: change,
            least: APIChange(cursor: "18", type: "deleted", id: 12, version: 4, note: nil)),
        Contract(
            schema: "ChangePage",
            full: APIChangePage(changes: [change], cursor: "17", hasMore: true),
            least: APIChangePage(changes: [], cursor: "0", hasMore: false)),
        Contract(
            schema: "NewNote", full: APINewNote(content: "x", date: "2026-11-29"),
            least: APINewNote(content: "x"), isRequest: true),
        Contract(
            schema: "NoteReplacement", full: APINoteReplacement(content: "x", date: "2026-11-29"),
            least: APINoteReplacement(content: "x", date: "2026-11-29"), isRequest: true),
        Contract(
            schema: "NotePatch", full: APINotePatch(content: "x", date: "2026-11-29"),
            least: APINotePatch(), isRequest: true),
        // The server writes the first five members of every problem (the type leaves them
        // optional only so that a client reads problems other servers write).
        Contract(
            schema: "Problem",
            full: APIProblem(
                type: "about:blank", title: "Precondition Failed", status: 412, code: 412,
                detail: "d", currentVersion: 3),
            least: APIProblem(
                type: "about:blank", title: "Not Found", status: 404, code: -7, detail: "d")),
    ]

    static func schemas() throws -> [String: [String: Any]] {
        let document = try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json))
        let components = (document as? [String: Any])?["components"] as? [String: Any]
        return try #require(components?["schemas"] as? [String: [String: Any]])
    }

    /// A value's members and the JSON type of each.
    static func members(_ value: any Encodable) throws -> [String: JSONKind] {
        let data = try JSONEncoder().encode(value)
        guard case .object(let members) = try JSONDecoder().decode(JSONKind.self, from: data)
        else { throw CocoaError(.coderInvalidValue) }
        return members
    }

    /// The JSON types a property's schema allows (`$ref` is an object of the schema named).
    static func allowedTypes(_ property: [String: Any]) -> Set<String> {
        if property["$ref"] != nil { return ["object"] }
        if let anyOf = property["anyOf"] as? [[String: Any]] {
            return anyOf.reduce(into: []) { $0.formUnion(allowedTypes($1)) }
        }
        if let type = property["type"] as? String { return [type] }
        return Set(property["type"] as? [String] ?? [])
    }

    @Test func everySchemaHasItsType() throws {
        #expect(Set(try Self.schemas().keys) == Set(Self.contracts.map(\.schema)))
    }

    @Test(arguments: contracts)
    func theSchemaDescribesWhatTheTypeEncodes(_ contract: Contract) throws {
        let schema = try #require(try Self.schemas()[contract.schema])
        #expect(schema["type"] as? String == "object")
        let properties = try #require(schema["properties"] as? [String: [String: Any]])
        let full = try Self.members(contract.full)
        #expect(Set(full.keys) == Set(properties.keys), "properties")
        for (name, kind) in full.merging(
            try Self.members(contract.least), uniquingKeysWith: { a, _ in a })
        {
            let allowed = Self.allowedTypes(properties[name] ?? [:])
            #expect(
                allowed.contains(kind.name)
                    || (kind.name == "integer" && allowed.contains("number")),
                "\(name): \(kind.name) not in \(allowed.sorted())")
        }
        for (name, kind) in try Self.members(contract.least) where kind.name == "null" {
            #expect(Self.allowedTypes(properties[name] ?? [:]).contains("null"), "\(name)")
        }
        let required = Set(schema["required"] as? [String] ?? [])
        #expect(Set(try Self.members(contract.least).keys) == required, "required")
        if contract.isRequest {
            #expect(schema["additionalProperties"] as? Bool == false)
        }
    }
}
