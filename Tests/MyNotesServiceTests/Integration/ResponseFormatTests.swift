import MyNotesProtocol
import MyNotesTesting
import Testing

/// docs/PROTOCOL.md, "Responses": bytes and headers of every kind of answer.
@Suite("Response formats")
struct ResponseFormatTests {
    static let json = "application/json; charset=utf-8"
    static let xml = "text/xml; charset=utf-8"
    static let xmlHead = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Response>"

    @Test(
        "JSON answers are byte-exact, whatever the case of type",
        arguments: [nil, "", "JSON", "json", "Json"])
    func jsonBytes(type: String?) throws {
        let fixture = try LegacyFixture()
        let typed = type.map { [Parameter("type", $0)] } ?? []
        func send(_ parameters: [Parameter]) throws -> String {
            let response = try fixture.post(parameters + typed)
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == Self.json)
            return response.document
        }
        #expect(
            try send(parameters(["action": "add", "date": "2026-11-29", "content": "Buy milk"]))
                == #"{"ResultCode":0,"ID":"1"}"#)
        #expect(
            try send([Parameter("action", "query")])
                == #"{"ResultCode":0,"Record":[{"ID":"1","CDate":"2026-11-29","Content":"Buy milk"}]}"#
        )
        #expect(
            try send(
                parameters([
                    "action": "modify", "id": "1", "date": "2026-11-30 08:30", "content": "Eggs",
                ])) == #"{"ResultCode":0}"#)
        #expect(
            try send([Parameter("action", "query")])
                == #"{"ResultCode":0,"Record":[{"ID":"1","CDate":"2026-11-30 08:30:00","Content":"Eggs"}]}"#
        )
        #expect(try send(parameters(["action": "remove", "id": "1"])) == #"{"ResultCode":0}"#)
        #expect(
            try send(parameters(["action": "remove", "id": "1"]))
                == #"{"ResultCode":-7,"Message":"No such note."}"#)
        #expect(try send([Parameter("action", "query")]) == #"{"ResultCode":0,"Record":[]}"#)
    }

    @Test(
        "XML answers are byte-exact, whatever the case of type", arguments: ["XML", "xml", "Xml"])
    func xmlBytes(type: String) throws {
        let fixture = try LegacyFixture()
        func send(_ parameters: [Parameter]) throws -> String {
            let response = try fixture.post(parameters + [Parameter("type", type)])
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == Self.xml)
            return response.document
        }
        #expect(
            try send(parameters(["action": "add", "date": "2026-11-29", "content": "Buy milk"]))
                == Self.xmlHead + "<ResultCode>0</ResultCode><ID>1</ID></Response>")
        #expect(
            try send([Parameter("action", "query")]) == Self.xmlHead
                + "<ResultCode>0</ResultCode><Record><Note><ID>1</ID><CDate>2026-11-29</CDate><Content>Buy milk</Content></Note></Record></Response>"
        )
        #expect(
            try send(
                parameters([
                    "action": "modify", "id": "1", "date": "2026-11-29", "content": "a<b>&c",
                ])) == Self.xmlHead + "<ResultCode>0</ResultCode></Response>")
        #expect(
            try send([Parameter("action", "query")]) == Self.xmlHead
                + "<ResultCode>0</ResultCode><Record><Note><ID>1</ID><CDate>2026-11-29</CDate><Content>a&lt;b&gt;&amp;c</Content></Note></Record></Response>"
        )
        #expect(
            try send(parameters(["action": "remove", "id": "1"])) == Self.xmlHead
                + "<ResultCode>0</ResultCode></Response>")
        #expect(
            try send(parameters(["action": "remove", "id": "1"])) == Self.xmlHead
                + "<ResultCode>-7</ResultCode><Message>No such note.</Message></Response>")
        #expect(
            try send([Parameter("action", "query")]) == Self.xmlHead
                + "<ResultCode>0</ResultCode><Record></Record></Response>")
    }

    @Test(
        "An unknown type is -8, answered in JSON",
        arguments: ["html", "XMLX", " XML", "xml ", "jsonp", "0", "XML,JSON"])
    func unknownType(type: String) throws {
        let fixture = try LegacyFixture()
        let response = try fixture.get(parameters(["action": "query", "type": type]))
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == Self.json)
        #expect(response.document == #"{"ResultCode":-8,"Message":"Invalid parameter."}"#)
    }

    @Test(
        "A failure is answered in the requested valid type",
        arguments: ResultCodeTests.table.map(\.0).filter {
            !$0.isSuccess && $0 != .quotaExceeded && $0 != .dataAccessFailed
        })
    func failureInXML(code: ResultCode) throws {
        // Given a request that fails with `code`, asking for XML,
        let fixture = try LegacyFixture()
        let request = CheckOrderTests.request(failingWith: code, fixture: fixture)
        let response = try fixture.post(
            request.parameters + [Parameter("type", "xml")], as: request.identity)
        // then the failure comes in XML, with its message.
        #expect(response.header("Content-Type") == Self.xml)
        #expect(
            response.document == Self.xmlHead
                + "<ResultCode>\(code.rawValue)</ResultCode><Message>\(code.message(in: .english))</Message></Response>"
        )
    }

    @Test(
        "Message is Chinese when Accept-Language prefers zh, else English",
        arguments: [
            (nil, MessageLanguage.english), ("zh", .chinese), ("zh-CN", .chinese),
            ("zh-TW", .chinese),
            ("zh-Hans-CN,zh;q=0.9", .chinese), ("en", .english), ("en-US,zh;q=0.9", .english),
            ("en;q=0.8,zh;q=0.9", .chinese), ("zh;q=0.5,en;q=0.5", .chinese),
            ("en;q=0.5,zh;q=0.5", .english), ("fr", .english), ("zh;q=0", .english),
        ])
    func language(header: String?, expected: MessageLanguage) throws {
        let fixture = try LegacyFixture()
        let headers = header.map { ["Accept-Language: \($0)"] } ?? []
        for type in ["JSON", "XML"] {
            let response = try fixture.get(
                parameters(["action": "remove", "id": "1", "type": type]), headers: headers)
            let message = ResultCode.noSuchNote.message(in: expected)
            let expectedBody =
                type == "JSON"
                ? #"{"ResultCode":-7,"Message":"\#(message)"}"#
                : Self.xmlHead
                    + "<ResultCode>-7</ResultCode><Message>\(message)</Message></Response>"
            #expect(response.document == expectedBody)
        }
    }

    @Test(
        "Several Accept-Language fields are one list, in order",
        arguments: [
            (["en", "zh"], MessageLanguage.english), (["zh", "en"], .chinese),
            (["en;q=0.5", "zh;q=0.9"], .chinese), (["zh;q=0.9", "en;q=0.5"], .chinese),
            (["zh;q=0.5", "en"], .english),
        ])
    func severalLanguageFields(fields: [String], expected: MessageLanguage) throws {
        // Given the preference split over several header fields, which HTTP defines
        // as the same as one field with the values joined by commas,
        let fixture = try LegacyFixture()
        let response = try fixture.get(
            parameters(["action": "remove", "id": "1"]),
            headers: fields.map { "Accept-Language: \($0)" })
        // then the language is chosen from the whole list.
        #expect(try response.reply().message == ResultCode.noSuchNote.message(in: expected))
    }
}
