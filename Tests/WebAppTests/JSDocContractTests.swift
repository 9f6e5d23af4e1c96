import Foundation
import MyNotesAPI
import Testing

/// The web app's JSDoc typedefs of REST shapes against the MyNotesAPI types the server
/// and the SDK share: each typedef's members are members of its type, optional (`?`)
/// exactly where the type may leave the member out, nullable (`| null`) exactly where it
/// may write `null`, and strings where the type writes strings. Members the app does not
/// read are named in ``Contract/unread``, so that a member added to the type fails here
/// until the typedef has it or it is declared unread.
@Suite struct JSDocContractTests {
    struct Contract: Sendable, CustomTestStringConvertible {
        var module: String
        var typedef: String
        /// Values with every optional member set, and with none.
        var full: any Encodable & Sendable
        var least: any Encodable & Sendable
        var unread: Set<String> = []
        var testDescription: String { "\(module): \(typedef)" }
    }

    /// One member of a typedef: `name?: type`.
    struct Member {
        var optional: Bool
        var types: [String]
    }

    static let note = APINote(
        id: 12, date: "2026-11-29", content: "x", createdAt: "2026-11-29T08:15:30.250Z",
        updatedAt: "2026-11-29T08:15:30.250Z", snippet: "…x…")
    static let bare = APINote(
        id: 12, date: "2026-11-29", content: "x", createdAt: "2026-11-29T08:15:30.250Z",
        updatedAt: "2026-11-29T08:15:30.250Z")

    static let contracts: [Contract] = [
        // The list shows a note's date and content; its times are not shown.
        Contract(
            module: "store.js", typedef: "Note", full: note, least: bare,
            unread: ["createdAt", "updatedAt"]),
        Contract(
            module: "store.js", typedef: "Draft",
            full: APINewNote(content: "x", date: "2026-11-29"),
            least: APINewNote(content: "x")),
        Contract(
            module: "store.js", typedef: "SessionInfo",
            full: APISessionInfo(
                id: "s", kind: "session", createdAt: "t", lastUsedAt: "t", expiresAt: "t",
                current: true),
            least: APISessionInfo(
                id: "k", kind: "accessKey", createdAt: "t", lastUsedAt: "t", expiresAt: nil,
                current: false)),
        Contract(
            module: "changes.js", typedef: "Change",
            full: APIChange(cursor: "1", type: "created", id: 1, version: 1, note: note),
            least: APIChange(cursor: "2", type: "deleted", id: 1, version: 2, note: nil)),
    ]

    /// The members of `/** @typedef {{ … }} name */` in `source`, its ` * ` margins removed.
    static func typedef(_ name: String, in source: String) throws -> [String: Member] {
        let expression = try NSRegularExpression(
            pattern: #"@typedef \{\{((?:(?!\}\}|@typedef).)*)\}\} "# + name + #"\b"#,
            options: [.dotMatchesLineSeparators])
        let range = NSRange(source.startIndex..., in: source)
        let match = try #require(expression.firstMatch(in: source, range: range))
        let body = try #require(Range(match.range(at: 1), in: source).map { source[$0] })
        let text = body.split(separator: "\n").map {
            $0.drop { $0 == " " || $0 == "*" }
        }.joined(separator: " ")
        var members: [String: Member] = [:]
        for field in text.split(separator: ",") {
            let parts = field.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            var name = parts[0].trimmingCharacters(in: .whitespaces)
            let optional = name.hasSuffix("?")
            if optional { name.removeLast() }
            let types = parts[1].split(separator: "|").map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            members[name] = Member(optional: optional, types: types)
        }
        return members
    }

    static func object(_ value: any Encodable) throws -> [String: Any] {
        try #require(
            JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as? [String: Any])
    }

    @Test(arguments: contracts)
    func theTypedefDescribesTheType(_ contract: Contract) throws {
        let members = try Self.typedef(contract.typedef, in: try SourceAssets.text(contract.module))
        let full = try Self.object(contract.full)
        let least = try Self.object(contract.least)
        #expect(Set(members.keys).union(contract.unread) == Set(full.keys))
        #expect(Set(members.keys).isDisjoint(with: contract.unread))
        for (name, member) in members {
            #expect(member.optional == (least[name] == nil), "\(name): optional")
            #expect(member.types.contains("null") == (least[name] is NSNull), "\(name): null")
            let isString = member.types.allSatisfy {
                $0 == "string" || $0.hasPrefix("'") || $0 == "null"
            }
            #expect(isString == (full[name] is String), "\(name): string")
        }
    }
}
