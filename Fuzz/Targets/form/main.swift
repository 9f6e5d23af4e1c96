import FuzzSupport
import HTTPCore
import PercentEncoding

// `application/x-www-form-urlencoded` query strings and bodies as the server decodes them,
// and its lenient percent-decoding checked against the SDK's on the same text.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    for field in FormDecoder.decode(input.bytes) {
        precondition(!field.name.isEmpty, "a field with an empty name")
    }
    let form = FormDecoder.percentDecode(input.bytes, plusAsSpace: .asSpace)
    let path = FormDecoder.percentDecode(input.bytes, plusAsSpace: .no)
    precondition(form.count <= size && path.count == form.count, "decoding grew the text")
    if let text = String(validating: input.bytes, as: UTF8.self) {
        precondition(form == PercentDecoder.form.decodeBytesLeniently(text), "server ≠ SDK (+)")
        precondition(path == PercentDecoder.url.decodeBytesLeniently(text), "server ≠ SDK")
    }
    _ = HTTPRequest(method: .get, target: input.bytes, headers: HTTPHeaders(), body: [])
    return 0
}

FuzzDriver.main(testOneInput)
