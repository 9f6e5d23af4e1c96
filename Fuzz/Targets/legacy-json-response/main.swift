import FuzzSupport
import MyNotesKit

// `webservice.php` answers in JSON as the SDK reads them.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    _ = try? FuzzingEntryPoints.legacyNotes(FuzzInput(data, size).data, format: .json)
    return 0
}

FuzzDriver.main(testOneInput)
