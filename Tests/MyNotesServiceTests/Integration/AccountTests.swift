import Foundation
import MyNotesDomain
import MyNotesService
import MyNotesTesting
import Testing

/// docs/PROTOCOL.md, "Access", the email rules, quota and ordering: what an account sees.
@Suite("Accounts and access")
struct AccountTests {
    // MARK: Email

    @Test(
        "Email is compared ASCII-case-insensitively, surrounding spaces ignored",
        arguments: [
            "ann@example.com", "ANN@EXAMPLE.COM", "Ann@Example.Com", "  ann@example.com",
            "ann@example.com   ", " ANN@example.com ",
        ],
        [AuthenticationModeArgument.token, .legacyEmail])
    func emailMatching(email: String, auth: AuthenticationModeArgument) throws {
        let fixture = try LegacyFixture(auth: auth.mode)
        try fixture.add("mine")
        let identity =
            [Parameter("email", email)]
            + (auth == .token ? [Parameter("token", fixture.token)] : [])
        #expect(
            try fixture.get([Parameter("action", "query")], as: identity).reply().record?.map(
                \.content) == ["mine"])
    }

    @Test(
        "Other spellings are other emails",
        arguments: [
            // A tab or a newline is a control character, refused with -8 (EmailRefusalTests).
            "ann@example.com.", "ann @example.com",
            "ånn@example.com", "ANN@EXAMPLE.CO",
        ],
        [AuthenticationModeArgument.token, .legacyEmail])
    func emailMismatch(email: String, auth: AuthenticationModeArgument) throws {
        let fixture = try LegacyFixture(auth: auth.mode)
        let identity =
            [Parameter("email", email)]
            + (auth == .token ? [Parameter("token", fixture.token)] : [])
        #expect(
            try fixture.get([Parameter("action", "query")], as: identity).resultCode
                == (auth == .token ? -9 : -1))
    }

    @Test("Non-ASCII letters are not folded: the email's case matters there")
    func nonASCIICase() throws {
        let fixture = try LegacyFixture(auth: .legacyEmail, email: "émile@example.com")
        #expect(
            try fixture.get(
                [Parameter("action", "query")], as: [Parameter("email", "ÉMILE@example.com")]
            ).resultCode == -1)
        #expect(
            try fixture.get(
                [Parameter("action", "query")], as: [Parameter("email", "éMILE@EXAMPLE.COM")]
            ).resultCode == 0)
    }

    // MARK: Token mode

    @Test("The token is accepted as a parameter or as a Bearer header")
    func tokenCarriers() throws {
        let fixture = try LegacyFixture()
        let email = [Parameter("email", fixture.email)]
        let query = [Parameter("action", "query")]
        #expect(
            try fixture.get(query, as: email + [Parameter("token", fixture.token)]).resultCode == 0)
        for scheme in ["Bearer", "bearer", "BEARER"] {
            #expect(
                try fixture.get(
                    query, as: email, headers: ["Authorization: \(scheme) \(fixture.token)"]
                ).resultCode == 0)
        }
        #expect(
            try fixture.post(query, as: email, headers: ["Authorization: Bearer \(fixture.token)"])
                .resultCode == 0)
        #expect(
            try fixture.postMultipart(
                query, as: email, headers: ["Authorization: Bearer \(fixture.token)"]
            ).resultCode == 0)
    }

    struct TokenCase: Sendable, CustomTestStringConvertible {
        var label: String
        var parameter: String?
        var header: String?
        var expected: Int
        var testDescription: String { label }
    }

    static let right = "<right>"

    static let tokenCases: [TokenCase] = [
        TokenCase(label: "none", expected: -9),
        TokenCase(label: "wrong parameter", parameter: "wrong", expected: -9),
        TokenCase(label: "wrong header", header: "Bearer wrong", expected: -9),
        TokenCase(
            label: "parameter beats header (right one)", parameter: right, header: "Bearer wrong",
            expected: 0),
        TokenCase(
            label: "parameter beats header (wrong one)", parameter: "wrong",
            header: "Bearer \(right)", expected: -9),
        TokenCase(
            label: "empty parameter is not sent: header counts", parameter: "",
            header: "Bearer \(right)", expected: 0),
        TokenCase(label: "empty parameter alone", parameter: "", expected: -9),
        TokenCase(label: "Basic is not Bearer", header: "Basic \(right)", expected: -9),
        TokenCase(label: "Bearer without token", header: "Bearer", expected: -9),
        TokenCase(label: "token with a space", parameter: " \(right)", expected: -9),
        TokenCase(label: "token in other case", parameter: "<RIGHT>", expected: -9),
        TokenCase(label: "token cut short", parameter: "<short>", expected: -9),
    ]

    @Test("Token sources and their precedence", arguments: tokenCases)
    func tokenPrecedence(testCase: TokenCase) throws {
        let fixture = try LegacyFixture()
        func fill(_ text: String) -> String {
            text.replacingOccurrences(of: Self.right, with: fixture.token)
                .replacingOccurrences(of: "<RIGHT>", with: fixture.token.uppercased())
                .replacingOccurrences(of: "<short>", with: String(fixture.token.dropLast()))
        }
        let identity =
            [Parameter("email", fixture.email)]
            + (testCase.parameter.map { [Parameter("token", fill($0))] } ?? [])
        let headers = testCase.header.map { ["Authorization: \(fill($0))"] } ?? []
        #expect(
            try fixture.get([Parameter("action", "query")], as: identity, headers: headers)
                .resultCode == testCase.expected)
    }

    @Test(
        "A wrong token and an unknown email are indistinguishable", arguments: ["JSON", "XML"],
        ["zh", "en"])
    func noProbing(type: String, language: String) throws {
        let fixture = try LegacyFixture()
        try fixture.server.createAccount(email: "bob@example.com")
        let headers = ["Accept-Language: \(language)"]
        let request = parameters(["action": "query", "type": type])
        let wrongToken = try fixture.get(
            request, as: parameters(["email": fixture.email, "token": "x"]), headers: headers)
        let otherToken = try fixture.get(
            request, as: parameters(["email": "bob@example.com", "token": fixture.token]),
            headers: headers)
        let unknown = try fixture.get(
            request, as: parameters(["email": "nobody@example.com", "token": "x"]), headers: headers
        )
        let noToken = try fixture.get(
            request, as: parameters(["email": "nobody@example.com"]), headers: headers)
        for response in [wrongToken, otherToken, noToken] {
            #expect(response.status == unknown.status)
            #expect(response.header("Content-Type") == unknown.header("Content-Type"))
            #expect(response.body == unknown.body)
        }
        #expect(unknown.text.contains(language == "zh" ? "身份验证失败。" : "Authentication failed."))
    }

    @Test("The token is stored only as a hash: its text is nowhere in the database")
    func tokenStoredAsHash() throws {
        let fixture = try LegacyFixture(backend: .sqlite)
        #expect(try fixture.add("x") == "1")
        let files = try FileManager.default.contentsOfDirectory(
            at: fixture.server.directory, includingPropertiesForKeys: nil)
        #expect(!files.isEmpty)
        for file in files {
            let bytes = Array(try Data(contentsOf: file))
            #expect(
                bytes.firstRange(of: Array(fixture.token.utf8)) == nil, "\(file.lastPathComponent)")
        }
    }

    // MARK: Email-only mode

    @Test("--legacy-email-auth: the email alone identifies the account; tokens are ignored")
    func legacyEmailMode() throws {
        let fixture = try LegacyFixture(auth: .legacyEmail)
        let email = [Parameter("email", fixture.email)]
        #expect(try fixture.add("x") == "1")
        #expect(try fixture.get([Parameter("action", "query")], as: email).resultCode == 0)
        #expect(
            try fixture.get(
                [Parameter("action", "query")], as: email + [Parameter("token", "wrong")]
            ).resultCode == 0)
        #expect(
            try fixture.get(
                [Parameter("action", "query")], as: email, headers: ["Authorization: Bearer wrong"]
            ).resultCode == 0)
        let unknown = try fixture.get(
            [Parameter("action", "query")],
            as: [Parameter("email", "nobody@example.com"), Parameter("token", fixture.token)])
        #expect(
            try unknown.reply()
                == LegacyReply(
                    resultCode: -1, message: "The user does not exist. Please register first."))
        let chinese = try fixture.get(
            [Parameter("action", "add")], as: [Parameter("email", "nobody@example.com")],
            headers: ["Accept-Language: zh-CN"])
        #expect(chinese.document == #"{"ResultCode":-1,"Message":"用户不存在，请先注册。"}"#)
        #expect(
            try fixture.get([Parameter("action", "query")], as: [Parameter("email", "  ")])
                .resultCode == -1)
    }

    @Test(
        "--legacy-email-auth keeps every other rule",
        arguments: CheckOrderTests.cases.filter { [.account, .nobody].contains($0.identity.kind) })
    func legacyEmailCheckOrder(testCase: CheckOrderTests.Case) throws {
        let fixture = try LegacyFixture(auth: .legacyEmail)
        try fixture.add("first")
        let identity = testCase.identity.kind == .account ? [Parameter("email", fixture.email)] : []
        let response = try fixture.get(
            query: FormEncoding.encode(identity + testCase.parameters) + testCase.raw)
        #expect(response.resultCode == testCase.expected)
    }

    // MARK: Isolation

    @Test(
        "One account never reads, modifies or removes another's notes",
        arguments: [AuthenticationModeArgument.token, .legacyEmail])
    func isolation(auth: AuthenticationModeArgument) throws {
        // Given Ann's note 1 and Bob, who has none,
        let fixture = try LegacyFixture(auth: auth.mode)
        #expect(try fixture.add("Ann's secret") == "1")
        let bobToken = try fixture.server.createAccount(email: "bob@example.com")
        let bob =
            [Parameter("email", "bob@example.com")]
            + (auth == .token ? [Parameter("token", bobToken)] : [])
        // then Bob's query is empty, and note 1 is not found for him,
        #expect(
            try fixture.get([Parameter("action", "query")], as: bob).text
                == #"{"ResultCode":0,"Record":[]}"#)
        let modify = try fixture.post(
            parameters(["action": "modify", "id": "1", "date": "2026-01-01", "content": "hacked"]),
            as: bob)
        #expect(try modify.reply() == LegacyReply(resultCode: -7, message: "No such note."))
        #expect(
            try fixture.post(parameters(["action": "remove", "id": "1"]), as: bob).resultCode == -7)
        // Bob's own note gets its own ID, and Ann sees only hers, untouched.
        let bobsNote = try fixture.post(
            parameters(["action": "add", "date": "2026-11-29", "content": "Bob's"]), as: bob)
        #expect(try bobsNote.reply().id == "2")
        #expect(try fixture.post(parameters(["action": "remove", "id": "2"])).resultCode == -7)
        #expect(
            try fixture.notes() == [.init(id: "1", date: "2026-11-29", content: "Ann's secret")])
        #expect(
            try fixture.get([Parameter("action", "query")], as: bob).reply().record?.map(\.content)
                == ["Bob's"])
    }

    // MARK: Quota

    @Test("The quota limits add only, and -2 names it", arguments: [1, 3])
    func quota(limit: Int) throws {
        // Given an account at its quota,
        let fixture = try LegacyFixture(quota: limit)
        for index in 1...limit { try fixture.add("note \(index)") }
        // when it adds one more, then it is refused with the quota in the message,
        let refused = try fixture.post(
            parameters(["action": "add", "date": "2026-11-29", "content": "one too many"]))
        #expect(
            refused.text
                == #"{"ResultCode":-2,"Message":"Your account can hold at most \#(limit) notes."}"#)
        let chinese = try fixture.post(
            parameters(["action": "add", "date": "2026-11-29", "content": "x", "type": "xml"]),
            headers: ["Accept-Language: zh"])
        #expect(
            chinese.text.contains(
                "<ResultCode>-2</ResultCode><Message>您的账号最多能插入\(limit)条数据。</Message>"))
        // and earlier checks still come first,
        #expect(try fixture.post(parameters(["action": "add", "content": "x"])).resultCode == -6)
        #expect(
            try fixture.post(parameters(["action": "add", "content": "x", "date": "bad"]))
                .resultCode == -8)
        #expect(
            try fixture.post(parameters(["action": "add", "date": "2026-11-29"])).resultCode == -5)
        // while query, modify and remove still work,
        #expect(try fixture.notes().count == limit)
        #expect(
            try fixture.post(
                parameters([
                    "action": "modify", "id": "1", "date": "2026-11-30", "content": "changed",
                ])
            ).resultCode == 0)
        #expect(try fixture.post(parameters(["action": "remove", "id": "1"])).resultCode == 0)
        // and a removal makes room again.
        #expect(try fixture.add("fits again") == String(limit + 1))
        #expect(
            try fixture.post(parameters(["action": "add", "date": "2026-11-29", "content": "x"]))
                .resultCode == -2)
    }

    @Test("The quota counts per account")
    func quotaPerAccount() throws {
        let fixture = try LegacyFixture(quota: 1)
        try fixture.add("Ann's")
        let bobToken = try fixture.server.createAccount(email: "bob@example.com")
        let bob = parameters(["email": "bob@example.com", "token": bobToken])
        #expect(
            try fixture.post(
                parameters(["action": "add", "date": "2026-11-29", "content": "Bob's"]), as: bob
            ).resultCode == 0)
    }

    @Test("Without a quota, add is not limited")
    func noQuota() throws {
        let fixture = try LegacyFixture(quota: 0)
        for index in 1...20 { #expect(try fixture.add("note \(index)") == String(index)) }
    }

    // MARK: Ordering

    @Test("Query lists newest first: a bare date is midnight, ties by ID descending")
    func ordering() throws {
        let fixture = try LegacyFixture()
        let dates = [
            "2026-11-29", "2026-11-28 23:59:59", "2026-11-29 00:00:00", "2026-11-29 00:00",
            "2026-11-30",
            "2026-11-29 00:00:01", "0001-01-01", "9999-12-31 23:59:59", "2026-11-29",
        ]
        for (index, date) in dates.enumerated() {
            #expect(try fixture.add("n\(index + 1)", date: date) == String(index + 1))
        }
        #expect(try fixture.notes().map(\.id) == ["8", "5", "6", "9", "4", "3", "1", "2", "7"])
        // A modified date moves the note.
        #expect(
            try fixture.post(
                parameters([
                    "action": "modify", "id": "7", "date": "2027-01-01 12:00", "content": "moved",
                ])
            ).resultCode == 0)
        #expect(try fixture.notes().map(\.id) == ["8", "7", "5", "6", "9", "4", "3", "1", "2"])
        #expect(
            try fixture.notes()[1] == .init(id: "7", date: "2027-01-01 12:00:00", content: "moved"))
    }

    @Test("An account with no notes is a success with an empty Record, in both types")
    func emptyQuery() throws {
        let fixture = try LegacyFixture()
        #expect(
            try fixture.get([Parameter("action", "query")]).document
                == #"{"ResultCode":0,"Record":[]}"#
        )
        let xml = try XMLReply.parse(
            fixture.get(parameters(["action": "query", "type": "XML"])).body)
        #expect(xml.resultCode == 0)
        #expect(xml.hasRecord)
        #expect(xml.notes.isEmpty)
    }
}

/// `AuthenticationMode` as a test argument with a readable name.
enum AuthenticationModeArgument: String, Sendable, CaseIterable {
    case token, legacyEmail

    var mode: AuthenticationMode { self == .token ? .token : .legacyEmail }
}

extension CheckOrderTests.Identity {
    enum Kind { case account, nobody, other }
    var kind: Kind {
        switch self {
        case .account: .account
        case .nobody: .nobody
        default: .other
        }
    }
}
