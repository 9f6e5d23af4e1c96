import Foundation
import MyNotesAPI
import PercentEncoding
import Testing

@testable import MyNotesKit

/// How REST requests are built and answers read, without a server.
@Suite("REST API v1: requests and answers")
struct RESTWireTests {
    static let configuration = NotesAPIClient.Configuration(
        server: URL(string: "http://notes.example.com/")!, token: "tok", language: .chinese)

    static func answer(
        _ status: Int, _ body: String, contentType: String = "application/problem+json",
        headers: [String: String] = [:]
    ) -> HTTPAnswer {
        var fields = ["content-type": contentType, "content-language": "en"]
        for (name, value) in headers { fields[name.lowercased()] = value }
        return HTTPAnswer(status: status, headers: fields, body: Data(body.utf8))
    }

    static func problem(_ status: Int, code: Int, detail: String = "d") -> String {
        #"{"type":"about:blank","title":"T","status":\#(status),"code":\#(code),"detail":"\#(detail)"}"#
    }

    @Test("The query is encoded value by value: CJK, +, & and spaces survive")
    func listRequest() throws {
        let request = RESTRequest(
            .get, ["notes"], query: [("limit", "2"), ("cursor", "a_b-c"), ("q", "牛奶 & 1+1")]
        ).urlRequest(for: Self.configuration)
        let url = try #require(request.url?.absoluteString)
        #expect(
            url == "http://notes.example.com/api/v1/notes?limit=2&cursor=a_b-c&q="
                + PercentEncoder.queryValue.encode("牛奶 & 1+1"))
        #expect(url.hasSuffix("q=%E7%89%9B%E5%A5%B6%20%26%201%2B1"))
        #expect(request.httpMethod == "GET")
        #expect(request.httpBody == nil)
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer tok")
        #expect(request.value(forHTTPHeaderField: "Accept-Language") == "zh-Hans")
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/json")
    }

    @Test("JSON bodies have sorted keys, leave out absent fields, and carry If-Match")
    func bodies() throws {
        let both = RESTRequest(
            .put, ["notes", "12"],
            json: APINoteReplacement(content: "a/b \"c\"", date: "2026-11-29"),
            ifMatch: #""12.3""#
        ).urlRequest(for: Self.configuration)
        #expect(both.url?.absoluteString == "http://notes.example.com/api/v1/notes/12")
        #expect(
            String(decoding: try #require(both.httpBody), as: UTF8.self)
                == #"{"content":"a/b \"c\"","date":"2026-11-29"}"#)
        #expect(both.value(forHTTPHeaderField: "If-Match") == #""12.3""#)
        #expect(
            both.value(forHTTPHeaderField: "Content-Type") == "application/json; charset=utf-8")

        let patch = RESTRequest(
            .patch, ["notes", "12"],
            json: APINotePatch(content: nil, date: "2027-01-01")
        ).urlRequest(for: Self.configuration)
        #expect(
            String(decoding: try #require(patch.httpBody), as: UTF8.self)
                == #"{"date":"2027-01-01"}"#)
        #expect(patch.value(forHTTPHeaderField: "If-Match") == nil)

        let signIn = RESTRequest(
            .post, ["sessions"], json: APICredentials(email: "a@b.c", password: "p w")
        ).urlRequest(for: NotesAPIClient.Configuration(server: URL(string: "https://h")!))
        #expect(
            String(decoding: try #require(signIn.httpBody), as: UTF8.self)
                == #"{"email":"a@b.c","password":"p w"}"#)
        #expect(signIn.value(forHTTPHeaderField: "Authorization") == nil)
        #expect(signIn.url?.absoluteString == "https://h/api/v1/sessions")
    }

    @Test("A note answer keeps its ETag, its date form and millisecond times")
    func noteAnswer() throws {
        let body = #"""
            {"id":12,"date":"2026-11-29 08:30:00","content":"牛奶\r\n😀","createdAt":"2026-11-29T08:15:30.250Z","updatedAt":"2026-11-29T09:00:00Z"}
            """#
        let note = try RESTResponse.note(
            Self.answer(200, body, contentType: "application/json", headers: ["ETag": #""12.1""#]),
            expecting: 200)
        #expect(note.note == Note(id: 12, date: NoteDate("2026-11-29 08:30"), content: "牛奶\r\n😀"))
        #expect(note.etag == #""12.1""#)
        #expect(note.createdAt == Date(timeIntervalSince1970: 1_795_940_130.25))
        #expect(note.updatedAt == Date(timeIntervalSince1970: 1_795_942_800))
    }

    @Test("A page answer: notes without ETags and the next cursor, or null")
    func pageAnswer() throws {
        let note =
            #"{"id":1,"date":"2026-11-29","content":"x","createdAt":"2026-11-29T08:15:30.250Z","updatedAt":"2026-11-29T08:15:30.250Z"}"#
        let page = try RESTResponse.decode(
            Self.answer(200, #"{"notes":[\#(note)],"nextCursor":"abc"}"#), expecting: 200,
            as: APINotePage.self
        ).page()
        #expect(page.notes.map(\.id) == [1])
        #expect(page.notes[0].etag == nil)
        #expect(page.nextCursor == "abc")
        let last = try RESTResponse.decode(
            Self.answer(200, #"{"notes":[],"nextCursor":null}"#), expecting: 200,
            as: APINotePage.self
        ).page()
        #expect(last == NotePage(notes: [], nextCursor: nil))
    }

    @Test("Unreadable answers are invalidResponse")
    func malformed() {
        for (body, expected) in [
            (#"{"notes":"#, "malformed"),
            (
                #"{"id":1,"date":"29.11.2026","content":"x","createdAt":"2026-11-29T08:15:30Z","updatedAt":"2026-11-29T08:15:30Z"}"#,
                "date"
            ),
            (
                #"{"id":1,"date":"2026-11-29","content":"x","createdAt":"yesterday","updatedAt":"2026-11-29T08:15:30Z"}"#,
                "malformed"
            ),
        ] {
            do {
                _ = try RESTResponse.note(
                    Self.answer(200, body, contentType: "application/json"), expecting: 200)
                Issue.record("no error for \(body)")
            } catch .invalidResponse(.invalidDate) {
                #expect(expected == "date")
            } catch .invalidResponse(.malformed) {
                #expect(expected == "malformed")
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
    }

    @Test(
        "Each problem status becomes its typed reason, with status, code and detail",
        arguments: [
            (401, -9), (403, 403), (404, -7), (409, 409), (412, 412), (422, -8), (429, 429),
            (400, -8), (413, -8), (500, -3),
        ])
    func problems(status: Int, code: Int) {
        let error = RESTResponse.failure(
            Self.answer(
                status, Self.problem(status, code: code, detail: "Because."),
                headers: ["Retry-After": "7"]))
        guard case .rest(let reason) = error else {
            Issue.record("expected .rest, got \(error)")
            return
        }
        let problem = ProblemDetails(
            title: "T", status: status, code: code, detail: "Because.", language: .english)
        #expect(reason.problem == problem)
        switch (status, reason) {
        case (401, .unauthorized), (403, .forbidden), (404, .notFound), (409, .alreadyExists),
            (412, .editConflict(_, nil)), (422, .unprocessable), (400, .other), (413, .other),
            (500, .other):
            break
        case (429, .tooManyRequests(_, let wait)):
            #expect(wait == .seconds(7))
            #expect(error.retryAfter == .seconds(7))
        default:
            Issue.record("\(status) read as \(reason)")
        }
        #expect(error.resultCode == (code < 0 ? ResultCode(rawValue: code) : nil))
        #expect(RetryPolicy.isTransient(error) == (status == 429 || status >= 500))
    }

    @Test("The detail is the message in its own language; another language gets the code's text")
    func messages() {
        let english = RESTResponse.failure(
            Self.answer(404, Self.problem(404, code: -7, detail: "No such note.")))
        #expect(english.message(in: .english) == "No such note.")
        #expect(english.message(in: .chinese) == "没有数据。")
        let quota = RESTResponse.failure(
            Self.answer(
                403, Self.problem(403, code: -2, detail: "Your account can hold at most 3 notes.")))
        #expect(quota.message(in: .chinese) == "您的账号最多能插入3条数据。")
        #expect(quota.resultCode == .quotaExceeded)
        let taken = RESTResponse.failure(
            Self.answer(409, Self.problem(409, code: 409, detail: "Taken.")))
        #expect(taken.message(in: .english) == "Taken.")
        #expect(taken.message(in: .chinese) == "该邮箱已注册。")
    }

    @Test("A status without a problem body is .http, as from a server without the API")
    func notAProblem() {
        let error = RESTResponse.failure(
            Self.answer(404, "Not Found", contentType: "text/plain"))
        guard case .http(404, "Not Found") = error else {
            Issue.record("expected .http, got \(error)")
            return
        }
        let json = RESTResponse.failure(
            Self.answer(502, #"{"error":"bad gateway"}"#, contentType: "application/json"))
        guard case .http(502, _) = json else {
            Issue.record("expected .http, got \(json)")
            return
        }
    }

    @Test("Retry-After as seconds or as an HTTP date")
    func retryAfter() {
        let now = Date(timeIntervalSince1970: 1_764_406_800)  // Sat, 29 Nov 2025 09:00:00 GMT
        #expect(RESTResponse.retryAfter("120", now: now) == .seconds(120))
        #expect(RESTResponse.retryAfter(" 0 ", now: now) == .seconds(0))
        #expect(
            RESTResponse.retryAfter("Sat, 29 Nov 2025 09:00:30 GMT", now: now) == .seconds(30))
        #expect(RESTResponse.retryAfter("Sat, 29 Nov 2025 08:00:00 GMT", now: now) == .zero)
        #expect(RESTResponse.retryAfter("-5", now: now) == nil)
        #expect(RESTResponse.retryAfter("soon", now: now) == nil)
        #expect(RESTResponse.retryAfter(nil, now: now) == nil)
    }
}
