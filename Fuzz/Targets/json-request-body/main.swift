import FuzzSupport
import HTTPCore
import MyNotesDomain
import MyNotesService

// REST request bodies, as `POST /api/v1/notes` (then its fields validated) and
// `POST /api/v1/sessions` read them.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let request = HTTPRequest(
        method: .post, path: "/api/v1/notes", headers: ["Content-Type": "application/json"],
        body: FuzzInput(data, size).bytes)
    if let fields = MyNotesService.FuzzingEntryPoints.jsonBody(
        request, allowed: ["content", "date"], fields: ["content", "date"])
    {
        if let content = fields["content"] {
            _ = MyNotesService.FuzzingEntryPoints.noteContent(content)
        }
        if let date = fields["date"] { _ = MyNotesService.FuzzingEntryPoints.noteDate(date) }
    }
    _ = MyNotesService.FuzzingEntryPoints.jsonBody(
        request, allowed: ["email", "password"], fields: ["email", "password"])
    return 0
}

FuzzDriver.main(testOneInput)
