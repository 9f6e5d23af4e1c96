import FuzzSupport
import HTTPCore

// `multipart/form-data` bodies: the first line is the `Content-Type` (its boundary), the
// rest the body.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let (contentType, body) = FuzzInput(data, size).splitAtFirstLine()
    guard let decoder = try? MultipartDecoder(contentType: contentType.text) else { return 0 }
    if let fields = try? decoder.decode(body.bytes) {
        for field in fields {
            precondition(!field.name.isEmpty, "a field with an empty name")
            precondition(field.value.count <= body.bytes.count, "a value longer than the body")
        }
    }
    return 0
}

FuzzDriver.main(testOneInput)
