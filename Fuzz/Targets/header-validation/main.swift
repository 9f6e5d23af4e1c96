import FuzzSupport
import HTTPCore

// The server's header checks: the first line is the HTTP version, each further line a field,
// its name before the first `:`.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let lines = FuzzInput(data, size).lines
    var headers = HTTPHeaders()
    for line in lines.dropFirst() {
        let bytes = line.bytes
        let colon = bytes.firstIndex(of: UInt8(ascii: ":")) ?? bytes.endIndex
        headers.add(
            String(decoding: bytes[..<colon], as: UTF8.self),
            String(decoding: bytes[min(colon + 1, bytes.endIndex)...], as: UTF8.self))
    }
    let version = lines.first?.text ?? ""
    let malformed = FuzzingEntryPoints.headerSectionIsMalformed(headers, version: version)
    // Adding a second, different Host can never make a header section acceptable.
    var twoHosts = headers
    twoHosts.add("Host", "a.example")
    twoHosts.add("Host", "b.example")
    precondition(
        FuzzingEntryPoints.headerSectionIsMalformed(twoHosts, version: version),
        "two Host fields accepted")
    _ = malformed
    return 0
}

FuzzDriver.main(testOneInput)
