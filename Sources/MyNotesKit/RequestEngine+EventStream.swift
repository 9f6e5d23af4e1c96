import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RequestEngine {
    /// Starts a streaming exchange (Server-Sent Events) to this engine's server; fails at
    /// once, as every call does, when the server URL is not http or https.
    func openEventStream(_ request: URLRequest, idleTimeout: Duration)
        throws(NotesClientError) -> EventStreamConnection
    {
        guard let scheme = server.scheme?.lowercased(), ["http", "https"].contains(scheme) else {
            throw .invalidConfiguration("the server URL must be http or https")
        }
        return EventStreamConnection(request, idleTimeout: idleTimeout)
    }
}
