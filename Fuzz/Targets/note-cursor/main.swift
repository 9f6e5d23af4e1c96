import FuzzSupport
import MyNotesDomain
import MyNotesService

// The REST `cursor` parameter: any text is refused or names a position whose cursor is
// read back as the same position.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let position = FuzzingEntryPoints.cursor(FuzzInput(data, size).text) else { return 0 }
    precondition(position.id > 0, "a cursor with an ID that is not positive")
    let again = FuzzingEntryPoints.cursor(FuzzingEntryPoints.cursorText(position))
    precondition(again == position, "a cursor does not survive encoding")
    return 0
}

FuzzDriver.main(testOneInput)
