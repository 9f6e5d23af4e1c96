import Foundation
import MyNotesTesting
import Testing

/// A note body with more than one fault is refused for the content first (its type, its
/// rules, its presence), then for the date, as the API has always answered: decoding
/// meets the date's type before the content's rules, and the answer must not change.
@Suite struct NoteBodyOrderTests {
    @Test(arguments: [
        ("POST", #"{"content": "", "date": 42}"#, 422, -5, "'content'"),
        ("POST", #"{"content": "bell\u0007", "date": null}"#, 422, -8, "'content'"),
        ("POST", #"{"date": 42}"#, 422, -5, "'content'"),
        ("POST", #"{"content": 1, "date": 42}"#, 400, -8, "'content'"),
        ("PUT", #"{"content": ""}"#, 422, -5, "'content'"),
        ("PUT", #"{"content": "x"}"#, 422, -6, "'date'"),
        ("PUT", #"{"date": "2026-11-29"}"#, 422, -5, "'content'"),
        ("PUT", #"{"content": "", "date": []}"#, 422, -5, "'content'"),
        ("PUT", #"{"content": "x", "date": []}"#, 400, -8, "'date'"),
        ("PATCH", #"{"content": "", "date": true}"#, 422, -5, "'content'"),
        ("PATCH", #"{"content": "x", "date": true}"#, 400, -8, "'date'"),
        ("PATCH", #"{"content": "x", "date": "29.11.2026"}"#, 422, -8, "'date'"),
    ])
    func theContentIsRefusedBeforeTheDate(
        method: String, body: String, status: Int, code: Int, mention: String
    ) throws {
        let server = try TestServer()
        defer { server.shutdown() }
        let client = try RESTClient(server).signUp("ann@example.com")
        let (note, _) = try client.createNote("x")
        let id = try #require(note["id"] as? Int)
        let path = method == "POST" ? "/api/v1/notes" : "/api/v1/notes/\(id)"
        let response = try client.send(method, path, rawBody: body)
        #expect(response.status == status)
        #expect(response.problemCode == code)
        #expect(response.detail.contains(mention), "\(response.detail)")
    }
}
