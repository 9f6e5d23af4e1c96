import ServerLogging
import Synchronization

/// Gives every request an ID and a logger whose lines carry it, and echoes the ID as
/// `X-Request-ID` on the response, so a person holding a response can find its log
/// lines. A client's own `X-Request-ID` is kept when well-formed (1 to 64 of
/// `A-Z a-z 0-9 - _ . :`), so IDs can follow a request across services; anything
/// else is replaced, so no client can write arbitrary text into the log.
///
/// ```swift
/// router.add(middleware: RequestIDMiddleware(logger: Logger(sink: .standardError)))
/// ```
public struct RequestIDMiddleware: HTTPMiddleware {
    public static let headerName = "X-Request-ID"
    static let maximumLength = 64

    let logger: Logger
    private let generator = Generator()

    public init(logger: Logger) {
        self.logger = logger
    }

    public func respond(
        to request: HTTPRequest, context: RequestContext, next: Next
    ) async -> HTTPResponse {
        let id = request.headers[Self.headerName].flatMap(Self.wellFormed) ?? generator.next()
        var context = context
        context.requestID = id
        context.logger = logger
        context.logger[metadataKey: "request_id"] = id
        var response = await next.respond(to: request, context: context)
        response.headers[Self.headerName] = id
        return response
    }

    static func wellFormed(_ text: String) -> String? {
        guard !text.isEmpty, text.utf8.count <= maximumLength,
            text.utf8.allSatisfy({ byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"),
                    UInt8(ascii: "."), UInt8(ascii: ":"):
                    true
                default: false
                }
            })
        else { return nil }
        return text
    }

    /// IDs unique to this process run: a random prefix chosen once, then a counter.
    /// No randomness per request: it costs a counter increment.
    final class Generator: Sendable {
        private let prefix: String
        private let counter = Atomic<UInt64>(0)

        init() {
            let random = UInt64.random(in: 0...UInt64.max)
            let hex = String(random, radix: 16)
            prefix = String(repeating: "0", count: 16 - hex.count) + hex + "-"
        }

        func next() -> String {
            let number = counter.add(1, ordering: .relaxed).newValue
            return prefix + String(number, radix: 16)
        }
    }
}
