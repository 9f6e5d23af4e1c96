import Foundation
import HTTPCore
import MyNotesAPI
import Testing

@testable import MyNotesService

/// Request bodies are decoded into the MyNotesAPI types; the answers must stay those of the
/// reader that walked `JSONSerialization`'s dictionary, which ``Reference`` keeps, for
/// every body: the same refusal (status, code, message naming the member) or the same
/// values.
@Suite struct RequestBodyEquivalenceTests {
    /// The reader the API had, member by member in the order given.
    enum Reference {
        static func read(
            _ body: [UInt8], allowed: Set<String>, members: [(name: String, required: Bool)]
        ) -> Result<[String: String], RESTProblem> {
            let parsed: Any
            do {
                parsed = try JSONSerialization.jsonObject(
                    with: Data(body), options: [.fragmentsAllowed])
            } catch {
                return .failure(.badRequest(.malformedJSON))
            }
            guard let object = parsed as? [String: Any] else {
                return .failure(.badRequest(.notAnObject))
            }
            if let unknown = object.keys.filter({ !allowed.contains($0) }).sorted().first {
                return .failure(.badRequest(.unknownField(unknown)))
            }
            var values: [String: String] = [:]
            for member in members {
                guard let value = object[member.name] else {
                    if member.required {
                        return .failure(
                            RESTProblem(
                                .unprocessableContent, code: .invalidParameter,
                                .missingField(member.name)))
                    }
                    continue
                }
                guard let text = value as? String, !(value is NSNumber) else {
                    return .failure(
                        .badRequest(.wrongType(field: member.name, expected: "string")))
                }
                values[member.name] = text
            }
            return .success(values)
        }
    }

    static func request(_ body: [UInt8]) -> HTTPRequest {
        HTTPRequest(
            method: .post, path: "/api/v1/notes", headers: ["Content-Type": "application/json"],
            body: body)
    }

    static func outcome<Body: Decodable>(
        _ type: Body.Type, _ body: [UInt8], allowed: Set<String>,
        values: (Body) -> [String: String]
    ) -> Result<[String: String], RESTProblem> {
        do throws(RESTProblem) {
            return .success(
                values(try JSONRequestBody.decode(type, request(body), allowed: allowed)))
        } catch {
            return .failure(error)
        }
    }

    static func same(
        _ new: Result<[String: String], RESTProblem>,
        _ old: Result<[String: String], RESTProblem>
    ) -> Bool {
        switch (new, old) {
        case (.success(let a), .success(let b)): a == b
        case (.failure(let a), .failure(let b)):
            a.status == b.status && a.code == b.code
                && (a.message == b.message || bothNameAnUnknownField(a.message, b.message))
        default: false
        }
    }

    /// A body with several unknown members is refused naming one of them. Which one the
    /// old reader named came from a dictionary's order, which changes with each process's
    /// hash seed, so any of them is the same answer.
    static func bothNameAnUnknownField(_ a: RESTMessage, _ b: RESTMessage) -> Bool {
        guard case .unknownField = a, case .unknownField = b else { return false }
        return true
    }

    /// Checks one body against the reference as sign-in and as a note patch read it.
    static func check(_ body: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        let text = String(decoding: body.prefix(200), as: UTF8.self).debugDescription
        let credentials: Set<String> = ["email", "password"]
        let signIn = outcome(APICredentials.self, body, allowed: credentials) {
            ["email": $0.email, "password": $0.password]
        }
        let signInBefore = Reference.read(
            body, allowed: credentials, members: [("email", true), ("password", true)])
        #expect(
            same(signIn, signInBefore), "\(text): \(signIn) ≠ \(signInBefore)",
            sourceLocation: sourceLocation)
        let note: Set<String> = ["content", "date"]
        let patch = outcome(APINotePatch.self, body, allowed: note) { patch in
            var values: [String: String] = [:]
            values["content"] = patch.content
            values["date"] = patch.date
            return values
        }
        let patchBefore = Reference.read(
            body, allowed: note, members: [("content", false), ("date", false)])
        #expect(
            same(patch, patchBefore), "\(text): \(patch) ≠ \(patchBefore)",
            sourceLocation: sourceLocation)
    }

    static let bodies: [String] = [
        #"{"email":"a@b.c","password":"p w"}"#, #"{"content":"牛奶\r\n😀","date":"2026-11-29"}"#,
        #"{}"#, #" { "content" : "x" } "#, "{\n\t\"date\":\"d\"\r}",
        #"{"email":"1","email":"2","password":"p"}"#, #"{"email":"1","email":2,"password":"p"}"#,
        #"{"email":2,"email":"1","password":"p"}"#, #"{"content":"a","content":null}"#,
        #"{"e\u006dail":"x","password":"p"}"#, #"{"email":"x","e\u006dail":"y","password":"p"}"#,
        #"{"cont\u0065nt":"x"}"#, #"{"e\u0301":"x","é":"y"}"#, #"{"\u00e9":"x","é":"y"}"#,
        #""x""#, "42", "null", "true", "[]", #"["content"]"#, "", " ", #"{"content":"x"} x"#,
        #"{"content":"x"}}"#, #"{"content":"x",}"#, #"{,}"#, #"{"content" "x"}"#,
        #"{"content":1e999}"#, #"{"content":"x","colour":1e999}"#, #"{"colour":"\ud800"}"#,
        #"{"content":-1e999}"#, #"{"content":123456789012345678901234567890}"#,
        #"{"content":1.5e-400}"#, #"{"content":"\ud800"}"#, #"{"content":"\udc00x"}"#,
        #"{"content":"\ud83d\ude00"}"#, #"{"content":"\ud800\u0041"}"#, #"{"content":"\u0000"}"#,
        #"{"content":"\u00E9\u00e9\uFFFF\uFFFE\uFDD0"}"#, "{\"content\":\"\u{1}\"}",
        "{\"content\":\"\t\"}", "{\"content\":\"\u{7F}\"}",
        "{\"content\":\"\u{FFFE}\u{FFFF}\u{10FFFF}\"}",
        #"{"content":NaN}"#, #"{"content":01}"#, #"{"content":-}"#, #"{"content":1.}"#,
        #"{"content":.5}"#, #"{"content":"\x"}"#, #"{"content":"\u12"}"#, #"{"content":"\u12G4"}"#,
        #"{'content':"x"}"#, #"{content:"x"}"#, "/*c*/{}", #"{"content":true}"#,
        #"{"content":tru}"#,
        #"{"content":null}"#, #"{"content":42}"#, #"{"content":"x","date":20261129}"#,
        #"{"content":["x"]}"#, #"{"content":{"x":"y"}}"#, #"{"content":[1e999]}"#,
        #"{"content":"x","colour":"red"}"#, #"{"password":"p","tags":[],"email":3}"#,
        #"{"password":"p"}"#, #"{"email":null,"password":"p"}"#, #"{"email":"e","password":5}"#,
        "\u{FEFF}{\"content\":\"x\"}", "{\"content\":\"x\"}\u{0}", "{\"content\":\"x\"}\u{FEFF}",
        #"{"content":"a\/b\"c\\d\b\f\n\r\t"}"#, #"{"content":"x","date":"\u0032"}"#,
        #"{"content":"# + String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
            + "}",
        #"{"content":"# + String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
            + "}",
    ]

    @Test func everyListedBodyIsAnsweredAsBefore() {
        for body in Self.bodies { Self.check(Array(body.utf8)) }
        let encodings: [String.Encoding] = [
            .utf16, .utf16LittleEndian, .utf16BigEndian, .utf32LittleEndian, .utf32BigEndian,
        ]
        for encoding in encodings {
            Self.check(Array(#"{"content":"牛奶","date":"d"}"#.data(using: encoding)!))
        }
        let broken: [[UInt8]] = [
            [0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82],
            [0xF0, 0x9F, 0x98], [0x80], [0xC2], [0xEF, 0xBF, 0xBE], [0xF0, 0x90, 0x80, 0x80],
            [0xE0, 0x9F, 0x80], [0xF5, 0x80, 0x80, 0x80],
        ]
        for bytes in broken {
            Self.check(Array(#"{"content":"a"#.utf8) + bytes + Array(#"b"}"#.utf8))
            Self.check(Array(#"{"a"#.utf8) + bytes + Array(#"":"b"}"#.utf8))
        }
    }

    /// What clients send takes the fast way (straight to `JSONDecoder`); the rest does not.
    @Test func plainBodiesAreKnownAsPlain() {
        let long = String(repeating: "abcdefgh", count: 5_000)
        #expect(
            JSONPlainObject.names(Array(#"{"content":"\#(long)","date":"2026-11-29"}"#.utf8))
                == ["content", "date"])
        #expect(
            JSONPlainObject.names(Array(#"{ "email" : "a@b.c", "password" : "牛奶 \"1\"" }"#.utf8))
                == ["email", "password"])
        #expect(JSONPlainObject.names(Array("{}".utf8)) == [])
        for body in [#"{"content":42}"#, #"{"a":"1","a":"2"}"#, #"{"a":"1",}"#, #"{"\u0061":"1"}"#]
        {
            #expect(JSONPlainObject.names(Array(body.utf8)) == nil, "\(body)")
        }
    }

    /// Long values are checked eight bytes at a time: a fault at each place of a word,
    /// and at each place of the tail the byte loop takes.
    @Test func aFaultAnywhereInALongValueIsAnsweredAsBefore() {
        let faults: [[UInt8]] = [
            [0x22], [0x5C], [0x5C, 0x75], [0x00], [0x1F], [0x7F], [0x80], [0xC3, 0xA9], [0xFF],
            [0xE2, 0x82, 0xAC], [0xED, 0xA0, 0x80], Array(#"\ud800"#.utf8), Array(#"\n"#.utf8),
        ]
        for fault in faults {
            for position in 0..<40 {
                var value = Array(String(repeating: "abcdefgh", count: 5).utf8)
                value.replaceSubrange(position..<position + 1, with: fault)
                Self.check(Array(#"{"content":""#.utf8) + value + Array(#"","date":"d"}"#.utf8))
                Self.check(Array(#"{"email":""#.utf8) + value + Array(#"","password":"p"}"#.utf8))
            }
        }
    }

    /// The listed bodies with bytes changed, added and removed at random (seeded, so a
    /// failure repeats): what a fuzzer would try first.
    @Test func mutatedBodiesAreAnsweredAsBefore() {
        var random = SplitMix(seed: 0x5EED)
        let alphabet =
            Array(#"{}[]":,\ u0123456789abcdefnrtlse.-+E"#.utf8) + [
                0x00, 0x09, 0x0A, 0x1F, 0x7F, 0x80, 0xBF, 0xC3, 0xA9, 0xE2, 0xED, 0xF0, 0xFF,
            ]
        for _ in 0..<4_000 {
            var body = Array(Self.bodies[Int(random.next() % UInt64(Self.bodies.count))].utf8)
            for _ in 0...(random.next() % 3) {
                let position = body.isEmpty ? 0 : Int(random.next() % UInt64(body.count))
                let byte = alphabet[Int(random.next() % UInt64(alphabet.count))]
                switch random.next() % 3 {
                case 0 where !body.isEmpty: body[position] = byte
                case 1 where !body.isEmpty: body.remove(at: position)
                default: body.insert(byte, at: position)
                }
            }
            Self.check(body)
        }
    }

    /// A small seeded generator (SplitMix64): the same bodies on every run.
    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
