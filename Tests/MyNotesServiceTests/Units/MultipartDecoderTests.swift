import HTTPCore
import Testing

@Suite("MultipartDecoder")
struct MultipartDecoderTests {
    static let contentType = "multipart/form-data; boundary=XyZ"

    static func decode(_ body: String) throws -> [FormField] {
        try MultipartDecoder(contentType: contentType).decode(Array(body.utf8))
    }

    @Test("Reads each part's name and raw value, in order")
    func decodesParts() throws {
        let body =
            "--XyZ\r\nContent-Disposition: form-data; name=\"action\"\r\n\r\nadd\r\n"
            + "--XyZ\r\ncontent-disposition: form-data; name=content\r\n"
            + "Content-Type: text/plain; charset=utf-8\r\n\r\na+b %41 &c=d\r\nline 2\r\n"
            + "--XyZ--\r\n"
        #expect(
            try Self.decode(body) == [
                FormField("action", "add"), FormField("content", "a+b %41 &c=d\r\nline 2"),
            ])
    }

    @Test("Ignores a preamble and an epilogue")
    func preambleAndEpilogue() throws {
        let body =
            "ignored\r\n--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--XyZ--\r\nepilogue"
        #expect(try Self.decode(body) == [FormField("a", "1")])
    }

    @Test("Allows transport padding after a delimiter, as RFC 2046 does")
    func transportPadding() throws {
        let body =
            "--XyZ \t\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n"
            + "--XyZ  \r\nContent-Disposition: form-data; name=\"b\"\r\n\r\n2\r\n--XyZ--  \r\n"
        #expect(try Self.decode(body) == [FormField("a", "1"), FormField("b", "2")])
        #expect(throws: MultipartDecoder.Failure.malformedBody) {
            try Self.decode(
                "--XyZ x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--XyZ--")
        }
    }

    @Test("Keeps empty values and skips file uploads and nameless parts")
    func emptyFilesAndNameless() throws {
        let body =
            "--XyZ\r\nContent-Disposition: form-data; name=\"empty\"\r\n\r\n\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n\r\nx\r\n"
            + "--XyZ\r\nContent-Disposition: form-data\r\n\r\ny\r\n"
            + "--XyZ\r\n\r\nno headers\r\n"
            + "--XyZ--"
        #expect(try Self.decode(body) == [FormField("empty", "")])
    }

    @Test("Keeps a value's bytes as sent, invalid UTF-8 included")
    func rawBytes() throws {
        let body =
            Array("--XyZ\r\nContent-Disposition: form-data; name=\"v\"\r\n\r\n".utf8) + [
                0xFF, 0x00,
            ]
            + Array("\r\n--XyZ--".utf8)
        #expect(
            try MultipartDecoder(contentType: Self.contentType).decode(body) == [
                FormField(name: Array("v".utf8), value: [0xFF, 0x00])
            ])
    }

    @Test("Keeps a part name's bytes as sent, so invalid UTF-8 is not hidden")
    func rawNameBytes() throws {
        let body =
            Array("--XyZ\r\nContent-Disposition: form-data; name=\"".utf8) + [0x61, 0xFF]
            + Array("\"\r\n\r\nv\r\n--XyZ--".utf8)
        #expect(
            try MultipartDecoder(contentType: Self.contentType).decode(body) == [
                FormField(name: [0x61, 0xFF], value: Array("v".utf8))
            ])
        let utf8Name = try Self.decode(
            "--XyZ\r\nContent-Disposition: form-data; name=\"内容\"\r\n\r\nv\r\n--XyZ--")
        #expect(utf8Name == [FormField("内容", "v")])
    }

    @Test(
        "Reads the boundary from the Content-Type",
        arguments: [
            "multipart/form-data; boundary=XyZ",
            "multipart/form-data;boundary=XyZ",
            "multipart/form-data; charset=utf-8; BOUNDARY=\"XyZ\"",
            "Multipart/Form-Data; boundary=XyZ ",
        ])
    func boundaryParsing(contentType: String) throws {
        let body = "--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--XyZ--"
        let fields = try MultipartDecoder(contentType: contentType).decode(Array(body.utf8))
        #expect(fields == [FormField("a", "1")])
    }

    @Test(
        "Refuses a Content-Type without a usable boundary",
        arguments: [
            "multipart/form-data", "multipart/form-data; boundary=",
            "multipart/form-data; boundary=\"\"",
            "multipart/form-data; boundary=" + String(repeating: "b", count: 71),
        ])
    func missingBoundary(contentType: String) {
        #expect(throws: MultipartDecoder.Failure.missingBoundary) {
            try MultipartDecoder(contentType: contentType)
        }
    }

    @Test(
        "Refuses a body that is cut short or has no delimiter",
        arguments: [
            "", "no delimiter", "--XyZ",
            "--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1",
            "--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--XyZ",
            "--XyZ\r\nContent-Disposition: form-data; name=\"a\"",
            "--XyZx\r\n",
        ])
    func malformedBody(body: String) {
        #expect(throws: MultipartDecoder.Failure.malformedBody) { try Self.decode(body) }
    }
}
