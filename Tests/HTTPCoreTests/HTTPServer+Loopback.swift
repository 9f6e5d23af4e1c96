import HTTPCore

extension HTTPServer {
    /// A server for `router` on a free loopback port with two workers, as the transport
    /// tests start them; `adjust` changes the rest of the configuration.
    static func onLoopback(
        _ router: Router, _ adjust: (inout ServerConfiguration) -> Void = { _ in }
    ) throws -> HTTPServer {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threads = 2
        adjust(&configuration)
        return try HTTPServer(configuration: configuration, responder: router)
    }
}
