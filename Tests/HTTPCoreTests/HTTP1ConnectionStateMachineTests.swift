import Testing

@testable import HTTPCore

/// The HTTP/1.1 framing without a socket: bytes go into the state machine as a connection
/// would pass them (in one piece, byte by byte, several requests at once), and the actions
/// that come out are what the connection would do.
@Suite struct HTTP1ConnectionStateMachineTests {
    /// What an action amounts to, comparable.
    enum Event: Equatable {
        case readBody(expectsContinue: Bool)
        case request(method: String, target: String, body: String)
        case answer(Int)
        case refuse(Int)
        case close
    }

    /// Plays the connection's part: keeps the bytes not consumed yet, as the socket's input
    /// buffer does, and records the actions.
    struct Connection {
        var machine: HTTP1ConnectionStateMachine
        var pending: [UInt8] = []
        var events: [Event] = []

        init(_ configure: (inout ServerConfiguration) -> Void = { _ in }) {
            var configuration = ServerConfiguration()
            configure(&configuration)
            machine = HTTP1ConnectionStateMachine(configuration: configuration)
        }

        /// Bytes arrive; frames them as far as they go.
        mutating func receive(_ text: String) {
            receive(Array(text.utf8))
        }

        mutating func receive(_ bytes: [UInt8]) {
            pending += bytes
            while !pending.isEmpty {
                let input = pending
                let (consumed, action) = input.withUnsafeBytes { machine.read($0) }
                #expect(consumed <= input.count)
                pending.removeFirst(consumed)
                switch action {
                case .needMoreBytes:
                    return
                case .readBody(let expectsContinue):
                    events.append(.readBody(expectsContinue: expectsContinue))
                case .dispatch(let head, let body):
                    events.append(
                        .request(
                            method: head.method.rawValue,
                            target: String(decoding: head.target, as: UTF8.self),
                            body: String(decoding: body, as: UTF8.self)))
                    return
                case .answer(let status):
                    events.append(.answer(status.rawValue))
                    return
                case .refuse(let status):
                    events.append(.refuse(status.rawValue))
                    return
                case .close:
                    events.append(.close)
                    return
                }
            }
        }

        /// Each byte in a read of its own.
        mutating func receiveByteByByte(_ text: String) {
            for byte in text.utf8 { receive([byte]) }
        }

        /// Answers the request being served, then reads on when the connection is kept
        /// (the bytes already received first): what the connection does once the answer
        /// is written.
        @discardableResult
        mutating func answer(
            _ status: HTTPStatus = .ok,
            body: HTTP1ConnectionStateMachine.ResponseBody = .whole(count: 2),
            closeRequested: Bool = false
        ) -> HTTP1ConnectionStateMachine.ResponseFraming? {
            let framing = machine.respond(
                status: status, body: body, closeRequested: closeRequested)
            if case .readNextRequest = machine.responseSent() { receive([]) }
            return framing
        }
    }

    static let get = "GET /a?b=c HTTP/1.1\r\nHost: x\r\n\r\n"

    static func post(_ body: String, extra: String = "") -> String {
        "POST /notes HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\(extra)\r\n"
            + body
    }

    static let chunkedHead = "POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"

    // MARK: Heads and bodies

    @Test func aHeadInOnePieceIsARequest() {
        var connection = Connection()
        connection.receive(Self.get)
        #expect(connection.events == [.request(method: "GET", target: "/a?b=c", body: "")])
        #expect(connection.pending.isEmpty)
    }

    @Test func aRequestByteByByteIsTheSameRequest() {
        var connection = Connection()
        connection.receiveByteByByte(Self.post("hello"))
        #expect(
            connection.events == [
                .readBody(expectsContinue: false),
                .request(method: "POST", target: "/notes", body: "hello"),
            ])
        #expect(connection.pending.isEmpty)
    }

    @Test func pipelinedRequestsWaitForTheAnswerBeforeThem() {
        var connection = Connection()
        connection.receive(Self.post("one") + Self.get + Self.post("three"))
        #expect(
            connection.events == [
                .readBody(expectsContinue: false),
                .request(method: "POST", target: "/notes", body: "one"),
            ])
        // The next request's bytes stay in the input until the answer is written.
        #expect(connection.pending.count == (Self.get + Self.post("three")).utf8.count)
        connection.receive([])
        #expect(connection.events.count == 2)
        connection.answer()
        #expect(connection.events.last == .request(method: "GET", target: "/a?b=c", body: ""))
        connection.answer()
        #expect(connection.events.last == .request(method: "POST", target: "/notes", body: "three"))
        #expect(connection.pending.isEmpty)
    }

    @Test func aBodyStopsAtItsLengthAndLeavesWhatFollows() {
        var connection = Connection()
        connection.receive(Self.post("abc") + "GET")
        #expect(connection.events.last == .request(method: "POST", target: "/notes", body: "abc"))
        #expect(connection.pending == Array("GET".utf8))
    }

    // MARK: Chunked bodies

    static let chunks = "5\r\nhello\r\n6;name=value\r\n world\r\n0\r\nTrailer: x\r\n\r\n"

    @Test func aChunkedBodyIsDecoded() {
        var connection = Connection()
        connection.receive(Self.chunkedHead + Self.chunks + Self.get)
        #expect(
            connection.events == [
                .readBody(expectsContinue: false),
                .request(method: "POST", target: "/c", body: "hello world"),
            ])
        #expect(connection.pending == Array(Self.get.utf8))
    }

    @Test func aChunkedBodyByteByByteIsTheSameBody() {
        var connection = Connection()
        connection.receiveByteByByte(Self.chunkedHead + Self.chunks)
        #expect(
            connection.events.last == .request(method: "POST", target: "/c", body: "hello world"))
        #expect(connection.pending.isEmpty)
    }

    @Test(arguments: [
        "5\nhello\r\n0\r\n\r\n",  // a bare LF ends the size line
        "5\r\nhello\n0\r\n\r\n",  // a bare LF ends the data
        "5\r\nhelloXY0\r\n\r\n",  // no CRLF after the data
        "z\r\nhello\r\n0\r\n\r\n",  // not a hexadecimal size
        "5;a\u{1}b\r\nhello\r\n0\r\n\r\n",  // a control byte in an extension
        "1000000000000000\r\n",  // a size too large for an Int
        "0\r\nTrailer\rx\r\n\r\n",  // a bare CR in a trailer
    ])
    func aMalformedChunkedBodyIsRefusedAndNothingMoreIsRead(chunks: String) {
        var connection = Connection()
        connection.receive(Self.chunkedHead + chunks)
        #expect(connection.events == [.readBody(expectsContinue: false), .refuse(400)])
        let left = connection.pending.count
        connection.receive(Self.get)
        #expect(connection.events.count == 2)
        #expect(connection.pending.count == left + Self.get.utf8.count)
    }

    @Test func aChunkedBodyOverTheLimitIsReadToItsEndThenAnswered413AndTheConnectionKept() {
        var connection = Connection {
            $0.maxBodyBytes = 8
            $0.maxDiscardedBodyBytes = 100
        }
        connection.receive(Self.chunkedHead + "6\r\nabcdef\r\n6\r\nghijkl\r\n0\r\n\r\n" + Self.get)
        #expect(connection.events == [.readBody(expectsContinue: false), .answer(413)])
        let framing = connection.answer(.contentTooLarge, body: .whole(count: 17))
        #expect(framing?.keepAlive == true)
        #expect(connection.events.last == .request(method: "GET", target: "/a?b=c", body: ""))
    }

    @Test func aChunkedBodyFarOverTheLimitClosesTheConnection() {
        var connection = Connection {
            $0.maxBodyBytes = 8
            $0.maxDiscardedBodyBytes = 16
        }
        connection.receive(Self.chunkedHead + "20\r\n" + String(repeating: "x", count: 32))
        #expect(connection.events == [.readBody(expectsContinue: false), .close])
        #expect(
            connection.machine.respond(status: .ok, body: .whole(count: 0), closeRequested: false)
                == nil)
    }

    // MARK: Refusals

    @Test func aBodyDeclaredOverTheLimitIsRefusedBeforeItIsRead() {
        var connection = Connection { $0.maxBodyBytes = 4 }
        connection.receive(Self.post("hello", extra: "Expect: 100-continue\r\n"))
        // No invitation to send the body: the refusal comes first, and the connection
        // lingers to read what the client still sends.
        #expect(connection.events == [.refuse(413)])
        #expect(
            connection.pending.count
                == Self.post("hello", extra: "Expect: 100-continue\r\n").utf8.count)
        connection.receive(String(repeating: "x", count: 1_000))
        #expect(connection.events == [.refuse(413)])
    }

    @Test(arguments: [
        "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n",
        "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n",
        "GET / HTTP/1.1\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nName: a\0b\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n",
        "NOT HTTP\r\n\r\n",
    ])
    func aMalformedHeadIs400(head: String) {
        var connection = Connection()
        connection.receive(head)
        #expect(connection.events == [.refuse(400)])
    }

    @Test func aHostNotAllowedIs421() {
        var connection = Connection {
            $0.allowedHosts = .defaults(listeningOn: "127.0.0.1", publicHost: nil)
        }
        connection.receive("GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n")
        #expect(connection.events == [.refuse(421)])
    }

    @Test func aTargetTooLongIs414WholeOrInPart() {
        let line = "GET /" + String(repeating: "x", count: 200)
        var whole = Connection { $0.maxRequestTargetBytes = 100 }
        whole.receive(line + " HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(whole.events == [.refuse(414)])
        var part = Connection { $0.maxRequestTargetBytes = 100 }
        part.receiveByteByByte(line)
        #expect(part.events == [.refuse(414)])
    }

    @Test func fieldsTooLongAre431WholeOrInPart() {
        let head = "GET / HTTP/1.1\r\nHost: x\r\nCookie: " + String(repeating: "c", count: 200)
        var whole = Connection { $0.maxHeaderBytes = 100 }
        whole.receive(head + "\r\n\r\n")
        #expect(whole.events == [.refuse(431)])
        var part = Connection { $0.maxHeaderBytes = 100 }
        part.receiveByteByByte(head)
        #expect(part.events == [.refuse(431)])
    }

    // MARK: Keeping the connection

    @Test func http11KeepsTheConnectionUnlessAskedToClose() {
        var kept = Connection()
        kept.receive(Self.get)
        #expect(
            kept.machine.respond(status: .ok, body: .whole(count: 2), closeRequested: false)?
                .keepAlive == true)
        #expect(kept.machine.responseSent() == .readNextRequest)

        var closed = Connection()
        closed.receive("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" + Self.get)
        let framing = closed.machine.respond(
            status: .ok, body: .whole(count: 2), closeRequested: false)
        #expect(framing?.keepAlive == false)
        #expect(closed.machine.responseSent() == .close)
        // What followed the request is never read.
        closed.receive([])
        #expect(closed.events.count == 1)
    }

    @Test func http10ClosesUnlessAskedToKeepAlive() {
        var closed = Connection()
        closed.receive("GET / HTTP/1.0\r\n\r\n")
        let closing = closed.machine.respond(
            status: .ok, body: .whole(count: 2), closeRequested: false)
        #expect(closing?.keepAlive == false)
        #expect(closing?.minorVersion == 0)
        #expect(closed.machine.responseSent() == .close)

        var kept = Connection()
        kept.receive("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n")
        let keeping = kept.machine.respond(
            status: .ok, body: .whole(count: 2), closeRequested: false)
        #expect(keeping?.keepAlive == true)
        #expect(keeping?.minorVersion == 0)
        #expect(kept.machine.responseSent() == .readNextRequest)
    }

    @Test func aResponderOrADrainingServerClosesTheConnection() {
        var connection = Connection()
        connection.receive(Self.get + Self.get)
        let framing = connection.answer(closeRequested: true)
        #expect(framing?.keepAlive == false)
        #expect(connection.events.count == 1)
    }

    @Test func expectContinueIsInvitedOnceTheHeadPassed() {
        var connection = Connection()
        connection.receive(Self.post("", extra: "Expect: 100-continue\r\n"))
        // No body: nothing to invite.
        #expect(connection.events == [.request(method: "POST", target: "/notes", body: "")])
        connection.answer()
        connection.receive(Self.post("hi", extra: "Expect: 100-Continue\r\n"))
        #expect(
            connection.events.suffix(2) == [
                .readBody(expectsContinue: true),
                .request(method: "POST", target: "/notes", body: "hi"),
            ])
    }

    // MARK: Framing answers

    @Test func aHeadRequestGetsTheLengthButNoBody() {
        var connection = Connection()
        connection.receive("HEAD / HTTP/1.1\r\nHost: x\r\n\r\n")
        let framing = connection.machine.respond(
            status: .ok, body: .whole(count: 5), closeRequested: false)
        #expect(framing?.framing == .length(5))
        #expect(framing?.sendsBody == false)
        #expect(framing?.keepAlive == true)
    }

    @Test func aStreamToAHeadRequestHasNoFraming() {
        var connection = Connection()
        connection.receive("HEAD / HTTP/1.1\r\nHost: x\r\n\r\n")
        let framing = connection.machine.respond(
            status: .ok, body: .streamed, closeRequested: false)
        #expect(framing?.framing == ResponseHead.Framing.none)
        #expect(framing?.sendsBody == false)
    }

    @Test func noContentHasNoLengthAndNotModifiedAZeroOne() {
        var connection = Connection()
        connection.receive(Self.get)
        let noContent = connection.machine.respond(
            status: .noContent, body: .whole(count: 0), closeRequested: false)
        #expect(noContent?.framing == ResponseHead.Framing.none)
        #expect(noContent?.sendsBody == false)
        let notModified = connection.machine.respond(
            status: .notModified, body: .whole(count: 0), closeRequested: false)
        #expect(notModified?.framing == .length(0))
        #expect(notModified?.sendsBody == false)
    }

    @Test func aStreamIsChunkedForHTTP11AndEndsWithTheConnectionForHTTP10() {
        var modern = Connection()
        modern.receive(Self.get)
        let chunked = modern.machine.respond(status: .ok, body: .streamed, closeRequested: false)
        #expect(chunked?.framing == .chunked)
        #expect(chunked?.keepAlive == true)

        var old = Connection()
        old.receive("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        let untilClose = old.machine.respond(status: .ok, body: .streamed, closeRequested: false)
        #expect(untilClose?.framing == .untilClose)
        #expect(untilClose?.keepAlive == false)
        #expect(old.machine.responseSent() == .close)
    }

    @Test func aStreamWithoutRoomIs503AndCloses() {
        var connection = Connection()
        connection.receive(Self.get)
        _ = connection.machine.respond(status: .ok, body: .streamed, closeRequested: false)
        let refused = connection.machine.refuseStream()
        #expect(refused.framing == .length(0))
        #expect(refused.keepAlive == false)
        #expect(connection.machine.responseSent() == .close)
    }

    @Test func anAnswerAfterTheConnectionClosedIsDropped() {
        var connection = Connection()
        connection.receive(Self.get)
        connection.machine.closed()
        #expect(
            connection.machine.respond(status: .ok, body: .whole(count: 2), closeRequested: false)
                == nil)
        #expect(connection.machine.responseSent() == .close)
    }
}
