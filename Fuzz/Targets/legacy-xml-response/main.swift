import FuzzSupport
import MyNotesKit

// `webservice.php` answers in XML as the SDK reads them.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    _ = try? FuzzingEntryPoints.legacyNotes(FuzzInput(data, size).data, format: .xml)
    return 0
}

FuzzDriver.main(testOneInput)
