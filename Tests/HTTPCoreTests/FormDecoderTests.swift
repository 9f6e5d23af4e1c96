import HTTPCore
import Testing

@Suite struct FormDecoderTests {
    @Test(arguments: [
        ("a=1&b=2", [FormField("a", "1"), FormField("b", "2")]),
        ("content=a=b", [FormField("content", "a=b")]),
        ("x=%41+%2B", [FormField("x", "A +")]),
        (
            "m=%&n=%4&o=%zz&p=100%",
            [
                FormField("m", "%"), FormField("n", "%4"), FormField("o", "%zz"),
                FormField("p", "100%"),
            ]
        ),
        ("flag&=skipped&&e=", [FormField("flag", ""), FormField("e", "")]),
        ("", []),
    ])
    func decodesLikePHP(input: String, expected: [FormField]) {
        #expect(FormDecoder.decode(Array(input.utf8)) == expected)
    }

    @Test func keepsBytesThatAreNotUTF8() {
        let fields = FormDecoder.decode(Array("c=%FF%FE".utf8))
        #expect(fields == [FormField(name: Array("c".utf8), value: [0xFF, 0xFE])])
    }

    @Test func decodesMultipartFormData() throws {
        let body = Array(
            ("--XyZ\r\nContent-Disposition: form-data; name=\"email\"\r\n\r\na@b.c\r\n"
                + "--XyZ\r\nContent-Disposition: form-data; name=\"content\"\r\n"
                + "Content-Type: text/plain\r\n\r\nline1\r\nline2 & +\r\n"
                + "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n\r\nignored\r\n"
                + "--XyZ--\r\n").utf8)
        let fields = try MultipartDecoder(contentType: "multipart/form-data; boundary=XyZ").decode(
            body)
        #expect(
            fields == [FormField("email", "a@b.c"), FormField("content", "line1\r\nline2 & +")])
    }

    @Test(arguments: ["multipart/form-data", "multipart/form-data; boundary="])
    func refusesMultipartWithoutBoundary(contentType: String) {
        #expect(throws: MultipartDecoder.Failure.missingBoundary) {
            _ = try MultipartDecoder(contentType: contentType)
        }
    }

    @Test func refusesATruncatedMultipartBody() throws {
        let decoder = try MultipartDecoder(contentType: "multipart/form-data; boundary=\"XyZ\"")
        let body = Array("--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nno end".utf8)
        #expect(throws: MultipartDecoder.Failure.malformedBody) { _ = try decoder.decode(body) }
    }
}
