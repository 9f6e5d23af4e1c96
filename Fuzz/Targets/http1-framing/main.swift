import FuzzSupport
import HTTPCore

// The HTTP/1.1 framing of a connection: the input's first byte picks where the rest is cut
// into two reads, and the rest is what a client sent. Each request is answered at once, so
// that pipelined requests are framed too. Whatever the bytes, the machine never takes more
// than it was given, never hands a responder more body than it received or than the limit,
// and reads nothing once it has refused or closed.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).bytes
    guard let first = bytes.first else { return 0 }
    let sent = bytes.dropFirst()
    let cut = sent.startIndex + Int(first) % (sent.count + 1)
    let framing = FuzzingEntryPoints.frameHTTP1([sent[..<cut], sent[cut...]])
    precondition(!framing.overconsumed, "consumed more bytes than were given")
    precondition(!framing.stalled, "read on without consuming anything")
    precondition(!framing.readAfterEnd, "read bytes after a refusal or a close")
    precondition(framing.consumed <= framing.received, "consumed more than received")
    precondition(framing.bodyBytes <= framing.consumed, "delivered more body than received")
    precondition(
        framing.largestBody <= FuzzingEntryPoints.http1FramingMaxBodyBytes,
        "delivered a body over the limit")
    return 0
}

FuzzDriver.main(testOneInput)
