import MyNotesProtocol
import MyNotesTesting
import Testing

/// docs/PROTOCOL.md, "Result codes": which code a request gets, check by check in the
/// documented order.
@Suite("Check order")
struct CheckOrderTests {
    /// Who a request claims to be.
    enum Identity: Sendable {
        case account, nobody, tokenOnly, emailOnly, wrongToken, unknownEmail
        case email(String)

        func parameters(_ fixture: LegacyFixture) -> [Parameter] {
            switch self {
            case .account: fixture.credentials
            case .nobody: []
            case .tokenOnly: [Parameter("token", fixture.token)]
            case .emailOnly: [Parameter("email", fixture.email)]
            case .wrongToken: [Parameter("email", fixture.email), Parameter("token", "wrong")]
            case .unknownEmail:
                [Parameter("email", "nobody@example.com"), Parameter("token", fixture.token)]
            case .email(let email): [Parameter("email", email), Parameter("token", fixture.token)]
            }
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var label: String
        var identity: Identity = .account
        var parameters: [Parameter]
        /// Already encoded, appended to the query as it is (for bytes that are not UTF-8).
        var raw = ""
        var expected: Int

        var testDescription: String { "\(label) → \(expected)" }
    }

    static let control = "\u{1}"

    static let cases: [Case] = [
        // UTF-8 validity comes first, for every parameter in effect.
        Case(
            label: "invalid UTF-8 beats a missing email", identity: .nobody,
            parameters: parameters(["action": "query"]), raw: "&note=%C3%28", expected: -8),
        Case(
            label: "invalid UTF-8 beats an invalid action", identity: .nobody,
            parameters: parameters(["action": "bogus"]), raw: "&x=%FF", expected: -8),
        Case(
            label: "invalid UTF-8 beats a wrong token", identity: .wrongToken,
            parameters: parameters(["action": "query"]), raw: "&x=%FF", expected: -8),
        Case(
            label: "invalid UTF-8 in a name", identity: .nobody,
            parameters: parameters(["action": "query"]), raw: "&%FF=1", expected: -8),
        Case(
            label: "invalid UTF-8 in a parameter query ignores",
            parameters: parameters(["action": "query"]), raw: "&content=%FF", expected: -8),
        Case(
            label: "invalid UTF-8 in a parameter remove ignores",
            parameters: parameters(["action": "remove", "id": "1"]), raw: "&date=%E4%B8",
            expected: -8),
        Case(
            label: "overlong UTF-8", parameters: parameters(["action": "query"]), raw: "&x=%C0%AF",
            expected: -8),
        Case(
            label: "UTF-8 surrogate", parameters: parameters(["action": "query"]),
            raw: "&x=%ED%A0%80", expected: -8),
        Case(
            label: "truncated UTF-8", parameters: parameters(["action": "query"]), raw: "&x=%E4%B8",
            expected: -8),
        Case(
            label: "valid 4-byte UTF-8", parameters: parameters(["action": "query"]),
            raw: "&x=%F0%9F%98%80", expected: 0),
        // Then action and type.
        Case(
            label: "invalid action beats a missing email", identity: .nobody,
            parameters: parameters(["action": "bogus"]), expected: -8),
        Case(
            label: "invalid type beats a missing email", identity: .nobody,
            parameters: parameters(["action": "query", "type": "bogus"]), expected: -8),
        Case(
            label: "invalid type beats a wrong token", identity: .wrongToken,
            parameters: parameters(["action": "query", "type": "bogus"]), expected: -8),
        Case(label: "missing action", parameters: [], expected: -8),
        Case(label: "empty action", parameters: parameters(["action": ""]), expected: -8),
        Case(
            label: "action with a space", parameters: parameters(["action": " query"]), expected: -8
        ),
        Case(label: "unknown action", parameters: parameters(["action": "delete"]), expected: -8),
        Case(label: "action Query", parameters: parameters(["action": "Query"]), expected: 0),
        Case(label: "action QUERY", parameters: parameters(["action": "QUERY"]), expected: 0),
        Case(
            label: "action ReMoVe", parameters: parameters(["action": "ReMoVe", "id": "1"]),
            expected: 0),
        // Then email.
        Case(
            label: "no email, no token", identity: .nobody,
            parameters: parameters(["action": "modify"]), expected: -1),
        Case(
            label: "no email beats the token check", identity: .tokenOnly,
            parameters: parameters(["action": "add"]), expected: -1),
        Case(
            label: "empty email", identity: .email(""), parameters: parameters(["action": "query"]),
            expected: -1),
        Case(
            label: "email of spaces", identity: .email("   "),
            parameters: parameters(["action": "query"]), expected: -1),
        // Then account and token.
        Case(
            label: "wrong token beats a missing id", identity: .wrongToken,
            parameters: parameters(["action": "modify"]), expected: -9),
        Case(
            label: "unknown email beats a missing id", identity: .unknownEmail,
            parameters: parameters(["action": "remove"]), expected: -9),
        Case(
            label: "missing token beats a missing content", identity: .emailOnly,
            parameters: parameters(["action": "add"]), expected: -9),
        // modify: id, content, date, validity, existence.
        Case(
            label: "modify without id and content", parameters: parameters(["action": "modify"]),
            expected: -4),
        Case(
            label: "modify with empty id, content, date",
            parameters: parameters(["action": "modify", "id": "", "content": "", "date": ""]),
            expected: -4),
        Case(
            label: "modify without id, with bad date",
            parameters: parameters(["action": "modify", "content": "x", "date": "bad"]),
            expected: -4),
        Case(
            label: "modify without content",
            parameters: parameters(["action": "modify", "id": "1"]), expected: -5),
        Case(
            label: "modify with empty content",
            parameters: parameters(["action": "modify", "id": "abc", "content": "", "date": "bad"]),
            expected: -5),
        Case(
            label: "modify without date",
            parameters: parameters(["action": "modify", "id": "1", "content": "x"]), expected: -6),
        Case(
            label: "modify: presence before validity",
            parameters: parameters(["action": "modify", "id": "1", "content": control]),
            expected: -6),
        Case(
            label: "modify with a bad content",
            parameters: parameters([
                "action": "modify", "id": "1", "content": control, "date": "2026-11-29",
            ]), expected: -8),
        Case(
            label: "modify with a bad date",
            parameters: parameters([
                "action": "modify", "id": "1", "content": "x", "date": "2026-02-30",
            ]), expected: -8),
        Case(
            label: "modify: validity before existence",
            parameters: parameters(["action": "modify", "id": "abc", "content": "x", "date": "bad"]
            ), expected: -8),
        Case(
            label: "modify with a malformed id",
            parameters: parameters([
                "action": "modify", "id": "abc", "content": "x", "date": "2026-11-29",
            ]), expected: -7),
        Case(
            label: "modify of no such note",
            parameters: parameters([
                "action": "modify", "id": "999", "content": "x", "date": "2026-11-29",
            ]), expected: -7),
        Case(
            label: "modify",
            parameters: parameters([
                "action": "modify", "id": "1", "content": "x", "date": "2026-11-29",
            ]), expected: 0),
        // add: content, date, validity (id ignored).
        Case(
            label: "add without anything", parameters: parameters(["action": "add"]), expected: -5),
        Case(
            label: "add with a date only",
            parameters: parameters(["action": "add", "date": "2026-11-29"]), expected: -5),
        Case(
            label: "add without date", parameters: parameters(["action": "add", "content": "x"]),
            expected: -6),
        Case(
            label: "add with empty date",
            parameters: parameters(["action": "add", "content": "x", "date": ""]), expected: -6),
        Case(
            label: "add with a bad date",
            parameters: parameters(["action": "add", "content": "x", "date": "29.11.2026"]),
            expected: -8),
        Case(
            label: "add with a bad content",
            parameters: parameters(["action": "add", "content": control, "date": "2026-11-29"]),
            expected: -8),
        Case(
            label: "add ignores id",
            parameters: parameters([
                "action": "add", "id": "abc", "content": "x", "date": "2026-11-29",
            ]), expected: 0),
        // remove: only id.
        Case(
            label: "remove without id", parameters: parameters(["action": "remove"]), expected: -4),
        Case(
            label: "remove with empty id", parameters: parameters(["action": "remove", "id": ""]),
            expected: -4),
        Case(
            label: "remove with a malformed id",
            parameters: parameters([
                "action": "remove", "id": "abc", "date": "bad", "content": control,
            ]), expected: -7),
        Case(
            label: "remove of no such note",
            parameters: parameters(["action": "remove", "id": "2"]), expected: -7),
        Case(
            label: "remove ignores date and content",
            parameters: parameters([
                "action": "remove", "id": "1", "date": "bad", "content": control,
            ]), expected: 0),
        // query: ignores id, date, content.
        Case(
            label: "query ignores id, date, content",
            parameters: parameters([
                "action": "query", "id": "abc", "date": "bad", "content": control,
            ]), expected: 0),
    ]

    @Test("Each check in its place", arguments: cases)
    func checkOrder(testCase: Case) throws {
        // Given an account with note 1,
        let fixture = try LegacyFixture()
        #expect(try fixture.add("first") == "1")
        // when the request is sent by GET and by POST,
        let encoded = FormEncoding.encode(
            testCase.identity.parameters(fixture) + testCase.parameters)
        let get = try fixture.get(query: encoded + testCase.raw)
        let post = try fixture.post(body: Array((encoded + testCase.raw).utf8))
        // then both answer the expected code. (The GET of a successful remove or
        // modify already changed the note; a repeat is still a success or -7.)
        #expect(get.status == 200)
        #expect(get.resultCode == testCase.expected)
        if testCase.parameters.first?.value.lowercased() != "remove" || testCase.expected != 0 {
            #expect(post.resultCode == testCase.expected)
        }
    }

    /// A request that fails with `code` (not -2 or -3, which need a configured server).
    static func request(failingWith code: ResultCode, fixture: LegacyFixture) -> (
        parameters: [Parameter], identity: [Parameter]
    ) {
        switch code {
        case .noSuchUser: (parameters(["action": "query"]), Identity.tokenOnly.parameters(fixture))
        case .missingID: (parameters(["action": "modify"]), fixture.credentials)
        case .missingContent: (parameters(["action": "add"]), fixture.credentials)
        case .missingDate: (parameters(["action": "add", "content": "x"]), fixture.credentials)
        case .noSuchNote: (parameters(["action": "remove", "id": "999"]), fixture.credentials)
        case .authenticationFailed:
            (parameters(["action": "query"]), Identity.wrongToken.parameters(fixture))
        default: (parameters(["action": "bogus"]), fixture.credentials)
        }
    }

    @Test(
        "Every failure reaches the wire with its message in both languages",
        arguments: [
            ResultCode.noSuchUser, .missingID, .missingContent, .missingDate, .noSuchNote,
            .invalidParameter, .authenticationFailed,
        ],
        [("zh-CN", MessageLanguage.chinese), ("en-US", .english)])
    func failureMessages(code: ResultCode, language: (header: String, language: MessageLanguage))
        throws
    {
        let fixture = try LegacyFixture()
        let request = Self.request(failingWith: code, fixture: fixture)
        let response = try fixture.get(
            request.parameters, as: request.identity,
            headers: ["Accept-Language: \(language.header)"])
        #expect(
            try response.reply()
                == LegacyReply(
                    resultCode: code.rawValue, message: code.message(in: language.language)))
        #expect(response.text.hasPrefix(#"{"ResultCode":\#(code.rawValue),"Message":""#))
    }
}
