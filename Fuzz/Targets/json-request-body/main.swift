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
    if let note = MyNotesService.FuzzingEntryPoints.noteBody(request) {
        _ = MyNotesService.FuzzingEntryPoints.noteContent(note.content)
        if let date = note.date { _ = MyNotesService.FuzzingEntryPoints.noteDate(date) }
    }
    _ = MyNotesService.FuzzingEntryPoints.credentials(request)
    return 0
}

FuzzDriver.main(testOneInput)
