import Testing

@testable import MyNotesService

@Suite("JSONObjectWriter")
struct JSONObjectWriterTests {
    @Test("Writes nested objects and arrays of them into one object")
    func nestedObjects() {
        var writer = JSONObjectWriter()
        writer.objects("notes", [1, 2]) { number, object in
            object.integer("id", Int64(number))
            if number == 2 { object.object("inner") { $0.string("note", nil) } }
        }
        writer.objects("none", [Int]()) { _, _ in }
        writer.object("empty") { _ in }
        writer.boolean("hasMore", false)
        writer.string("cursor", "a\"b")
        #expect(
            String(decoding: writer.finish(), as: UTF8.self)
                == #"{"notes":[{"id":1},{"id":2,"inner":{"note":null}}],"none":[],"#
                + #""empty":{},"hasMore":false,"cursor":"a\"b"}"#)
    }
}
