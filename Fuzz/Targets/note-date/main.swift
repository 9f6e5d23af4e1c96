import FuzzSupport
import MyNotesDomain
import MyNotesProtocol
import MyNotesService

// `NoteDate`, the grammar of server and SDK, and the server's validation on top of it.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = FuzzInput(data, size).text
    let date = NoteDate(text)
    precondition(FuzzingEntryPoints.noteDate(text) == date, "server and SDK read a date apart")
    guard let date else { return 0 }
    let written = date.description
    precondition(NoteDate(written) == date, "a date does not survive being written")
    if text.utf8.count != 16 { precondition(written == text, "a date is written differently") }
    return 0
}

FuzzDriver.main(testOneInput)
