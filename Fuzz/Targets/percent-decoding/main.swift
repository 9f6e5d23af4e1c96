import FuzzSupport
import PercentEncoding

// The SDK's percent-decoding, strict and lenient, and its query strings; every encoder's
// output decodes back to the text it encoded.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = FuzzInput(data, size).text
    let keepingSlash = PercentDecoder(keepingEscaped: "/")
    for decoder in [PercentDecoder.url, .form, keepingSlash] {
        let lenient = decoder.decodeLeniently(text)
        precondition(decoder.decodeBytesLeniently(text).count <= text.utf8.count, "grew")
        do {
            let strict = try decoder.decode(text)
            precondition(strict == lenient, "strict and lenient decoding differ")
        } catch {
            precondition(error.byteOffset >= 0 && error.byteOffset < text.utf8.count, "offset")
        }
    }
    for (encoder, decoder) in [
        (PercentEncoder.unreserved, PercentDecoder.url), (.queryValue, .url), (.form, .form),
    ] {
        let decoded = try? decoder.decode(encoder.encode(text))
        precondition(decoded == text, "encoded text does not decode back")
    }
    let query = QueryString(parsing: text)
    precondition(
        QueryString(parsing: query.encoded(using: .form)) == query,
        "a query does not survive encoding")
    return 0
}

FuzzDriver.main(testOneInput)
