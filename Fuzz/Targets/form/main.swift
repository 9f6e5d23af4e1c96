import FuzzSupport
import HTTPCore
import PercentEncoding

// `application/x-www-form-urlencoded` query strings and bodies as the server decodes them,
// and the lenient percent-decoding it shares with the SDK: its byte and String forms agree.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    for field in FormDecoder.decode(input.bytes) {
        precondition(!field.name.isEmpty, "a field with an empty name")
    }
    let form = PercentDecoder.form.decodeBytesLeniently(input.bytes)
    let path = PercentDecoder.url.decodeBytesLeniently(input.bytes)
    precondition(form.count <= size && path.count == form.count, "decoding grew the text")
    let keeping = PercentDecoder(keepingEscaped: "/%").decodeBytesLeniently(input.bytes)
    precondition(keeping.count >= path.count && keeping.count <= size, "kept escapes miscounted")
    if let text = String(validating: input.bytes, as: UTF8.self) {
        precondition(form == PercentDecoder.form.decodeBytesLeniently(text), "bytes ≠ String (+)")
        precondition(path == PercentDecoder.url.decodeBytesLeniently(text), "bytes ≠ String")
    }
    _ = HTTPRequest(method: .get, target: input.bytes, headers: HTTPHeaders(), body: [])
    return 0
}

FuzzDriver.main(testOneInput)
