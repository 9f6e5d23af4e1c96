import Foundation
import MyNotesTesting
import Testing

/// `snippet=true` on a search: each note carries a one-line piece around its first match,
/// found with the search's own folding; without it, or without `q`, notes are as before.
@Suite struct SearchSnippetTests {
    static func search(_ client: RESTClient, _ query: String) throws -> [[String: Any]] {
        let page = try client.send("GET", "/api/v1/notes?\(query)")
        #expect(page.status == 200)
        return page.json["notes"] as? [[String: Any]] ?? []
    }

    static func escaped(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }

    @Test(arguments: [
        ("milk", "Shopping:\nbuy MILK and eggs", "Shopping: buy MILK and eggs"),
        ("strasse", "Wohnung in der Hauptstraße 5", "Wohnung in der Hauptstraße 5"),
        ("会议", "周一上午十点开会议事", "周一上午十点开会议事"),
        ("as", "Maß", "Maß"),
        (
            "needle",
            String(repeating: "a", count: 100) + " needle " + String(repeating: "b", count: 100),
            "…" + String(repeating: "a", count: 29) + " needle " + String(repeating: "b", count: 69)
                + "…"
        ),
    ])
    func aSnippetShowsTheFirstMatch(query: String, content: String, snippet: String) throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try RESTClient(server).signUp("ann@example.com")
        _ = try client.createNote(content)
        let notes = try Self.search(client, "q=\(Self.escaped(query))&snippet=true")
        #expect(notes.count == 1)
        #expect(notes.first?["snippet"] as? String == snippet)
        #expect(notes.first?["content"] as? String == content)
    }

    @Test(arguments: ["q=milk", "q=milk&snippet=false", "snippet=true", "q=&snippet=true"])
    func withoutSnippetOrSearchNotesHaveNone(query: String) throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try RESTClient(server).signUp("ann@example.com")
        _ = try client.createNote("milk")
        let notes = try Self.search(client, query)
        #expect(notes.count == 1)
        #expect(notes.first?["snippet"] == nil)
    }

    @Test(arguments: ["yes", "1", "TRUE", ""])
    func aSnippetValueOtherThanTrueOrFalseIs400(value: String) throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try RESTClient(server).signUp("ann@example.com")
        let answer = try client.send("GET", "/api/v1/notes?q=milk&snippet=\(value)")
        #expect(answer.status == 400)
        #expect(answer.problemCode == -8)
    }
}
