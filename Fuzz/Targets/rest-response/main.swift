import Foundation
import FuzzSupport
import MyNotesKit

// REST API answers as the SDK reads them: the first line is a header value (`Retry-After`,
// `ETag`, a note's time), the rest the body, read as a note, a page and a problem.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let (header, body) = FuzzInput(data, size).splitAtFirstLine()
    let value = header.text
    if let delay = FuzzingEntryPoints.retryAfter(value, now: Date(timeIntervalSince1970: 0)) {
        precondition(delay >= .zero, "a negative Retry-After")
    }
    _ = FuzzingEntryPoints.timestamp(value)
    _ = try? FuzzingEntryPoints.restNote(body.data, etag: value)
    _ = try? FuzzingEntryPoints.restPage(body.data)
    for contentType in ["application/problem+json", "text/html"] {
        _ = FuzzingEntryPoints.restFailure(
            status: 409, headers: ["content-type": contentType, "retry-after": value],
            body: body.data)
    }
    return 0
}

FuzzDriver.main(testOneInput)
