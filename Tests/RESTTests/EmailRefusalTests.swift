import Foundation
import MyNotesDomain
import MyNotesService
import MyNotesTesting
import Testing

/// Sign-up once took emails holding C1 controls, bidi overrides, NBSP and lookalike
/// letters of another script; `accounts list` then printed them raw. Each of the reported
/// examples, and kin, is now refused by both APIs with a message naming the character
/// (REST `422`, code -8; legacy -8), and accepted emails are stored normalized.
@Suite struct EmailRefusalTests {
    static let refused: [(email: String, detail: String)] = [
        ("\u{9B}2J\u{9B}31mroot@x", "holds a control character (U+009B)"),
        (
            "<svg/onload=alert(1)>@x\u{202E}gro.evil",
            "holds a bidirectional formatting character (U+202E)"
        ),
        ("ann@example.com\u{A0}", "holds a space or an invisible character (U+00A0)"),
        ("\u{430}nn@example.com", "mixes scripts before the @ (Cyrillic and Latin)"),
        ("a\u{200B}nn@example.com", "holds a space or an invisible character (U+200B)"),
        ("ann\u{2066}@example.com", "holds a bidirectional formatting character (U+2066)"),
        ("ann@exam\u{1B}[2Jple.com", "holds a control character (U+001B)"),
        ("\u{3B1}nn@example.com", "mixes scripts before the @ (Greek and Latin)"),
        ("ann\u{E0041}@example.com", "holds a space or an invisible character (U+E0041)"),
    ]

    @Test(arguments: refused)
    func signUpRefusesAndNamesTheCharacter(email: String, detail: String) throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let response = try RESTClient(server, over: .socket).send(
            "POST", "/api/v1/accounts", json: ["email": email, "password": "password 123"])
        #expect(response.status == 422)
        #expect(response.problemCode == -8)
        #expect(response.detail == "Field 'email' \(detail).")
        #expect(!response.text.contains(email), "the email is not echoed")
        let signIn = try RESTClient(server).send(
            "POST", "/api/v1/sessions", json: ["email": email, "password": "password 123"])
        #expect(signIn.status == 422)
    }

    @Test(arguments: refused)
    func theLegacyProtocolAnswersInvalidParameter(email: String, detail: String) throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let token = try server.createAccount(email: "ann@example.com")
        let encoded = email.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let path = "/mynotes/webservice.php?action=query&token=\(token)&email=\(encoded)"
        let response = try RESTClient(server).send("GET", path)
        #expect(response.text.hasPrefix(#"{"ResultCode":-8"#), "\(detail): \(response.text)")
    }

    @Test(arguments: refused)
    func theOperatorIsRefusedWithTheReasonAndNotTheCharacters(email: String, detail: String)
        async throws
    {
        let server = try TestServer()
        defer { server.shutdown() }
        // What the operator reads: the email (escaped on a terminal by the command line)
        // and the reason, naming the character by its code point or the scripts.
        let named = detail.split(separator: "(").last.map { String($0.dropLast()) } ?? detail
        await #expect {
            try await AccountService(store: server.store).create(email: email)
        } throws: { error in
            let text = String(describing: error)
            return text.hasPrefix("invalid email '") && text.contains(named)
        }
    }

    static let accepted: [(sent: String, stored: String)] = [
        ("  Ann@Example.COM ", "Ann@example.com"),
        ("e\u{301}mile@EXAMPLE.fr", "\u{E9}mile@example.fr"),
        ("名字@例子.中国", "名字@例子.中国"),
        ("tanaka田中たなか@example.jp", "tanaka田中たなか@example.jp"),
        ("иван@пример.рф", "иван@пример.рф"),
        ("ann+notes@Mail.Example.com", "ann+notes@mail.example.com"),
    ]

    @Test(arguments: accepted)
    func acceptedEmailsAreStoredNormalizedAndFoundInAnyForm(sent: String, stored: String) throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = RESTClient(server)
        let created = try client.send(
            "POST", "/api/v1/accounts", json: ["email": sent, "password": "password 123"])
        #expect(created.status == 201)
        #expect(created.json["email"] as? String == stored)
        #expect(created.json["email"] as? String == stored.precomposedStringWithCanonicalMapping)
        for form in [sent, stored, stored.decomposedStringWithCanonicalMapping] {
            let signIn = try client.send(
                "POST", "/api/v1/sessions", json: ["email": form, "password": "password 123"])
            #expect(signIn.status == 201, "\(form.debugDescription)")
        }
    }
}
