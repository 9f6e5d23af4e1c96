import Foundation
import PercentEncoding
import Testing

@testable import MyNotesKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What goes on the wire: every value encoded on its own, deterministically.
@Suite("Building requests")
struct LegacyRequestTests {
    static func configuration(_ method: RequestMethod) -> NotesClient.Configuration {
        var configuration = NotesClient.Configuration(
            server: URL(string: "http://notes.example.com/")!,
            credentials: .token(email: "ann+notes@example.com", token: "tok"), language: .chinese)
        configuration.method = method
        return configuration
    }

    static let request = LegacyRequest(
        action: .add, date: NoteDate("2026-11-29 08:00"), content: "a&b=c+d %41 日")

    @Test("GET puts each value, query-encoded, in the query string")
    func get() throws {
        let urlRequest = Self.request.urlRequest(for: Self.configuration(.get))
        #expect(urlRequest.httpMethod == "GET")
        #expect(
            urlRequest.url?.absoluteString
                == "http://notes.example.com/mynotes/webservice.php?email=ann%2Bnotes%40example.com"
                + "&type=JSON&action=add&date=2026-11-29%2008%3A00%3A00&content=a%26b%3Dc%2Bd%20%2541%20%E6%97%A5"
        )
        #expect(urlRequest.httpBody == nil)
        #expect(urlRequest.value(forHTTPHeaderField: "Authorization") == "Bearer tok")
        #expect(urlRequest.value(forHTTPHeaderField: "Accept-Language") == "zh-Hans")
    }

    @Test("POST sends a form body that the server's decoder reads back exactly")
    func post() throws {
        let urlRequest = Self.request.urlRequest(for: Self.configuration(.post))
        #expect(urlRequest.httpMethod == "POST")
        #expect(urlRequest.url?.absoluteString == "http://notes.example.com/mynotes/webservice.php")
        #expect(
            urlRequest.value(forHTTPHeaderField: "Content-Type")
                == "application/x-www-form-urlencoded; charset=utf-8")
        let body = String(decoding: try #require(urlRequest.httpBody), as: UTF8.self)
        let parsed = QueryString(parsing: body)
        #expect(parsed["content"] == "a&b=c+d %41 日")
        #expect(parsed["email"] == "ann+notes@example.com")
        #expect(parsed["date"] == "2026-11-29 08:00:00")
    }

    @Test(
        "The endpoint: a server root gets the legacy path; a full endpoint is kept",
        arguments: [
            ("http://h/", "http://h/mynotes/webservice.php"),
            ("http://h/service", "http://h/service/mynotes/webservice.php"),
            ("http://h/service/mynotes/WebService.php", "http://h/service/mynotes/WebService.php"),
        ])
    func endpoint(server: String, expected: String) {
        let configuration = NotesClient.Configuration(
            server: URL(string: server)!, credentials: .emailOnly("a@b.c"))
        #expect(configuration.endpoint.absoluteString == expected)
    }

    @Test("Email-only credentials send no Authorization header")
    func emailOnly() {
        let configuration = NotesClient.Configuration(
            server: URL(string: "http://h/")!, credentials: .emailOnly("a@b.c"))
        let urlRequest = LegacyRequest(action: .query).urlRequest(for: configuration)
        #expect(urlRequest.value(forHTTPHeaderField: "Authorization") == nil)
    }
}
