import FuzzSupport

// `mynotes import`'s reading of Notes.json and Notes.xml. NotesFile.swift is the CLI's own
// file (a link): the executable's code cannot be imported by another executable.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    _ = try? NotesFile.read(FuzzInput(data, size).data)
    return 0
}

FuzzDriver.main(testOneInput)
