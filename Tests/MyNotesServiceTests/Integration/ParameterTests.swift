import MyNotesTesting
import Testing

/// docs/PROTOCOL.md, "Parameters": where they are read from and how they are decoded,
/// for careful and careless clients.
@Suite("Parameters")
struct ParameterTests {
    /// How a request carries its parameters.
    enum Transport: String, Sendable, CaseIterable {
        case get, urlencoded, multipart
    }

    static func send(_ transport: Transport, _ request: [Parameter], on fixture: LegacyFixture)
        throws -> RawHTTPClient.Response
    {
        switch transport {
        case .get: try fixture.get(request)
        case .urlencoded: try fixture.post(request)
        case .multipart: try fixture.postMultipart(request)
        }
    }

    @Test(
        "A correct client's text arrives unchanged, by every transport",
        arguments: Transport.allCases,
        [
            "Buy milk", "a&b=c", "1+1=2", "%41 %zz % %4", "content=a=b", "中文 😀",
            "tab\tLF\nCRLF\r\n",
            "\"quoted\" <tag> & 'single'", "   spaces   ", "#hash ?query /path \\back",
        ])
    func roundTrip(transport: Transport, content: String) throws {
        let fixture = try LegacyFixture()
        let added = try Self.send(
            transport, parameters(["action": "add", "date": "2026-11-29", "content": content]),
            on: fixture)
        #expect(try added.reply() == LegacyReply(resultCode: 0, id: "1"))
        #expect(try fixture.notes().map(\.content) == [content])
        let queried = try Self.send(transport, [Parameter("action", "query")], on: fixture)
        #expect(try queried.reply().record?.map(\.content) == [content])
    }

    @Test(
        "A body parameter wins over a query parameter",
        arguments: [Transport.urlencoded, .multipart])
    func bodyBeatsQuery(transport: Transport) throws {
        // Given a query string that says remove and a body that says add,
        let fixture = try LegacyFixture()
        let query = FormEncoding.encode(
            parameters([
                "action": "remove", "content": "from query", "date": "1999-01-01", "type": "xml",
            ]))
        let body =
            fixture.credentials
            + parameters([
                "action": "add", "content": "from body", "date": "2026-11-29", "type": "json",
            ])
        let response: RawHTTPClient.Response
        if transport == .multipart {
            response = try fixture.post(
                body: Multipart.body(
                    body.map { ($0.name, Array($0.value.utf8)) }, boundary: "b0undary"),
                query: query, contentType: "multipart/form-data; boundary=b0undary")
        } else {
            response = try fixture.post(body: Array(FormEncoding.encode(body).utf8), query: query)
        }
        // then the body's values are the ones in effect.
        #expect(response.document == #"{"ResultCode":0,"ID":"1"}"#)
        #expect(try fixture.notes() == [.init(id: "1", date: "2026-11-29", content: "from body")])
    }

    @Test(
        "Query parameters the body does not repeat still count",
        arguments: [Transport.urlencoded, .multipart])
    func queryFillsIn(transport: Transport) throws {
        let fixture = try LegacyFixture()
        let query = FormEncoding.encode(
            fixture.credentials + parameters(["action": "add", "date": "2026-11-29"]))
        let body = [Parameter("content", "body only")]
        let response =
            transport == .multipart
            ? try fixture.post(
                body: Multipart.body(body.map { ($0.name, Array($0.value.utf8)) }, boundary: "XyZ"),
                query: query, contentType: "multipart/form-data; boundary=XyZ")
            : try fixture.post(body: Array(FormEncoding.encode(body).utf8), query: query)
        #expect(response.resultCode == 0)
        #expect(try fixture.notes().map(\.content) == ["body only"])
    }

    @Test("A GET's body is not read; a POST body of another media type is not read either")
    func bodiesNotRead() throws {
        let fixture = try LegacyFixture()
        let query = FormEncoding.encode(fixture.credentials + [Parameter("action", "query")])
        let get = try fixture.send(
            "GET", target: "\(LegacyFixture.defaultPath)?\(query)",
            headers: ["Content-Type: application/x-www-form-urlencoded"],
            body: Array("action=bogus".utf8))
        #expect(get.resultCode == 0)
        for contentType in ["text/plain", "application/json"] {
            let post = try fixture.post(
                body: Array("action=bogus".utf8), query: query, contentType: contentType)
            #expect(post.resultCode == 0)
        }
    }

    @Test("The media type is read case-insensitively, with its parameters")
    func mediaTypeParameters() throws {
        let fixture = try LegacyFixture()
        let body = Array(
            FormEncoding.encode(fixture.credentials + [Parameter("action", "query")]).utf8)
        for contentType in [
            "Application/X-WWW-Form-URLEncoded", "application/x-www-form-urlencoded; charset=UTF-8",
        ] {
            #expect(try fixture.post(body: body, contentType: contentType).resultCode == 0)
        }
        // Old clients that forget the header still mean a form.
        #expect(try fixture.post(body: body, contentType: nil).resultCode == 0)
    }

    @Test("Invalid UTF-8 that a later value replaces is not in effect")
    func replacedInvalidUTF8() throws {
        let fixture = try LegacyFixture()
        let valid = FormEncoding.encode(
            fixture.credentials
                + parameters(["action": "add", "date": "2026-11-29", "content": "fixed"]))
        // In the query, replaced by the body:
        #expect(
            try fixture.post(body: Array(valid.utf8), query: "content=%FF&date=%FE").resultCode == 0
        )
        // Earlier in the same query, replaced by a later duplicate:
        #expect(try fixture.get(query: "content=%FF&" + valid).resultCode == 0)
        // But a valid value that an invalid one replaces is gone:
        #expect(try fixture.get(query: valid + "&content=%FF").resultCode == -8)
        #expect(try fixture.notes().map(\.content) == ["fixed", "fixed"])
    }

    @Test("Names are bytes: a canonically equivalent name is another parameter")
    func namesAreBytes() throws {
        // Given an invalid value under KELVIN SIGN (U+212A), which Swift's String
        // equality takes for the letter K, and a valid value under K itself,
        let fixture = try LegacyFixture()
        let valid = FormEncoding.encode(
            fixture.credentials + parameters(["action": "query", "K": "ok"]))
        // then the K does not replace the Kelvin sign's value: that is still in effect.
        #expect(try fixture.post(body: Array(valid.utf8), query: "%E2%84%AA=%FF").resultCode == -8)
        #expect(try fixture.get(query: "%E2%84%AA=%FF&" + valid).resultCode == -8)
        #expect(try fixture.get(query: "K=%FF&" + valid).resultCode == 0)
    }

    @Test(
        "A failure is answered in XML when asked, even for invalid UTF-8; an invalid type is JSON")
    func invalidUTF8Format() throws {
        let fixture = try LegacyFixture()
        let xml = try fixture.get(
            query: FormEncoding.encode(
                fixture.credentials + parameters(["action": "query", "type": "xml"])) + "&x=%FF")
        #expect(xml.header("Content-Type") == "text/xml; charset=utf-8")
        #expect(
            xml.text.contains("<ResultCode>-8</ResultCode><Message>Invalid parameter.</Message>"))
        let json = try fixture.get(
            query: FormEncoding.encode(fixture.credentials + [Parameter("action", "query")])
                + "&type=%FF")
        #expect(json.header("Content-Type") == "application/json; charset=utf-8")
        #expect(json.document == #"{"ResultCode":-8,"Message":"Invalid parameter."}"#)
    }

    @Test("Invalid UTF-8 in a multipart name or value is -8")
    func multipartInvalidUTF8() throws {
        let fixture = try LegacyFixture()
        let good = (fixture.credentials + [Parameter("action", "query")]).map {
            ($0.name, Array($0.value.utf8))
        }
        let valueBody = Multipart.body(good + [("note", [0xFF])], boundary: "XyZ")
        #expect(
            try fixture.post(body: valueBody, contentType: "multipart/form-data; boundary=XyZ")
                .resultCode == -8)
        var nameBody = Multipart.body(good, boundary: "XyZ")
        nameBody.removeLast("--XyZ--\r\n".utf8.count)
        nameBody += Array("--XyZ\r\nContent-Disposition: form-data; name=\"n".utf8) + [0xFF]
        nameBody += Array("\"\r\n\r\nx\r\n--XyZ--\r\n".utf8)
        #expect(
            try fixture.post(body: nameBody, contentType: "multipart/form-data; boundary=XyZ")
                .resultCode == -8)
    }

    @Test("The last of duplicate parameters wins", arguments: Transport.allCases)
    func lastDuplicateWins(transport: Transport) throws {
        let fixture = try LegacyFixture()
        let request = parameters([
            "action": "remove", "content": "first", "action": "add", "date": "1999-01-01",
            "content": "last", "date": "2026-11-29",
        ])
        #expect(try Self.send(transport, request, on: fixture).resultCode == 0)
        #expect(try fixture.notes() == [.init(id: "1", date: "2026-11-29", content: "last")])
    }

    @Test(
        "Names are case-sensitive",
        arguments: [
            (parameters(["Action": "query"]), -8),
            (parameters(["ACTION": "query", "action": "bogus"]), -8),
            (parameters(["action": "add", "Content": "x", "date": "2026-11-29"]), -5),
            (parameters(["action": "add", "content": "x", "Date": "2026-11-29"]), -6),
            (parameters(["action": "remove", "ID": "1"]), -4),
            (parameters(["action": "query", "Type": "bogus"]), 0),
        ])
    func caseSensitiveNames(request: [Parameter], expected: Int) throws {
        let fixture = try LegacyFixture()
        try fixture.add("x")
        #expect(try fixture.get(request).resultCode == expected)
    }

    @Test(
        "Names with other case do not count as the account's",
        arguments: ["Email", "EMAIL", "Token"])
    func caseSensitiveCredentials(name: String) throws {
        let fixture = try LegacyFixture()
        let identity = fixture.credentials.map {
            $0.name.lowercased() == name.lowercased() ? Parameter(name, $0.value) : $0
        }
        let expected = name.lowercased() == "email" ? -1 : -9
        #expect(
            try fixture.get([Parameter("action", "query")], as: identity).resultCode == expected)
    }

    /// Raw text pasted into `"...&content=%@"` and what the server then stores.
    static let sloppyContents: [(String, String)] = [
        ("Buy milk", "Buy milk"),
        ("1+1=2", "1 1=2"),
        ("a+b", "a b"),
        ("%41BC", "ABC"),
        ("100%", "100%"),
        ("50%zz", "50%zz"),
        ("%4", "%4"),
        ("%", "%"),
        ("a=b", "a=b"),
        ("x==y", "x==y"),
        ("Tom & Jerry", "Tom "),
        ("a&b", "a"),
        ("a&b=c", "a"),
        ("中文 😀", "中文 😀"),
        ("%E4%B8%AD", "中"),
    ]

    @Test(
        "Raw unencoded POST bodies decode by the form rules and nothing else",
        arguments: sloppyContents)
    func sloppyPost(raw: String, stored: String) throws {
        // Given a body built as "...&content=%@" with the raw text pasted in,
        let fixture = try LegacyFixture()
        let body =
            "action=add&email=\(fixture.email)&token=\(fixture.token)&date=2026-11-29&content=\(raw)"
        // when it is posted,
        let response = try fixture.post(body: Array(body.utf8))
        // then the note holds what form decoding makes of it: cut at &, + as space, %XX as a byte.
        #expect(response.resultCode == 0)
        #expect(try fixture.notes() == [.init(id: "1", date: "2026-11-29", content: stored)])
    }

    @Test("A raw date with + for its space is read as the space")
    func sloppyDate() throws {
        let fixture = try LegacyFixture()
        let body =
            "action=add&email=\(fixture.email)&token=\(fixture.token)&date=2026-11-29+08:30&content=x"
        #expect(try fixture.post(body: Array(body.utf8)).resultCode == 0)
        #expect(try fixture.notes().map(\.date) == ["2026-11-29 08:30:00"])
    }

    @Test("A content cut at & leaves the rest as another parameter, which can win")
    func cutContentBecomesParameter() throws {
        let fixture = try LegacyFixture()
        let body =
            "action=add&email=\(fixture.email)&token=\(fixture.token)&date=2026-11-29&content=Q&A&action=remove"
        // The tail "action=remove" replaces "add"; remove needs an id: -4.
        #expect(try fixture.post(body: Array(body.utf8)).resultCode == -4)
        #expect(try fixture.notes().isEmpty)
    }

    /// Text the seed app put into its URL, and what the server then stores.
    static let seedAppContents: [(String, String)] = [
        ("Buy milk", "Buy milk"),
        ("a+b c", "a+b c"),
        ("1,2 $3 #4 [5] \"6\"", "1,2 $3 #4 [5] \"6\""),
        ("50% off", "50% off"),
        ("100%", "100%"),
        ("%41", "A"),
        ("a=b", "a=b"),
        ("x&y", "x"),
        ("中文 😀", "中文 😀"),
    ]

    @Test(
        "Whole-URL-encoded GETs of the seed app decode by the form rules",
        arguments: seedAppContents)
    func seedAppGet(content: String, stored: String) throws {
        // Given a URL built by pasting, then escaping only `"+$,#[] ` and non-ASCII,
        let fixture = try LegacyFixture()
        let query =
            "action=add&type=JSON&email=\(fixture.email)&token=\(fixture.token)&date=2026-11-29 08:30&content=\(content)"
        // when it is sent,
        let response = try fixture.get(query: FormEncoding.seedAppEscape(query))
        // then the note holds the decoded text, its date with :00 seconds.
        #expect(response.resultCode == 0)
        #expect(
            try fixture.notes() == [.init(id: "1", date: "2026-11-29 08:30:00", content: stored)])
    }

    @Test("Parameters with no = or an empty name are harmless")
    func oddPairs() throws {
        let fixture = try LegacyFixture()
        let query =
            "&&=x&=&flag&"
            + FormEncoding.encode(fixture.credentials + [Parameter("action", "query")]) + "&&"
        #expect(try fixture.get(query: query).document == #"{"ResultCode":0,"Record":[]}"#)
        // A bare name is an empty value: `content` present but empty is -5.
        let add =
            FormEncoding.encode(
                fixture.credentials + parameters(["action": "add", "date": "2026-11-29"]))
            + "&content"
        #expect(try fixture.get(query: add).resultCode == -5)
    }

    @Test("A malformed multipart body is a plain 400, not a protocol answer")
    func malformedMultipart() throws {
        let fixture = try LegacyFixture()
        for (contentType, body) in [
            ("multipart/form-data", "--XyZ\r\n"),
            ("multipart/form-data; boundary=XyZ", "no delimiter here"),
            (
                "multipart/form-data; boundary=XyZ",
                "--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1"
            ),
        ] {
            let response = try fixture.post(
                body: Array(body.utf8), contentType: contentType, on: fixture.newClient())
            #expect(response.status == 400)
            #expect(response.resultCode == nil)
        }
    }
}
