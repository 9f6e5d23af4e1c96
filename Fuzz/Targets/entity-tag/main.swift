import FuzzSupport
import MyNotesDomain
import MyNotesService

// `If-Match` values: the first line is the note's ID as in the path, the rest the field.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let (id, ifMatch) = FuzzInput(data, size).splitAtFirstLine()
    switch FuzzingEntryPoints.precondition(ifMatch: ifMatch.text, id: id.text) {
    case .matches(let versions)?:
        precondition(versions.allSatisfy { $0 > 0 }, "a version that is not positive")
    case .none?, .exists?, nil: break
    }
    return 0
}

FuzzDriver.main(testOneInput)
