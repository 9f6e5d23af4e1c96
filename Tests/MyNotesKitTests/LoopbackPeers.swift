import Foundation
import MyNotesTesting

#if canImport(Glibc)
    import Glibc
#endif

/// Real TCP peers on the loopback interface that misbehave in one chosen way, for the
/// failures a correct server never shows: silence, hanging up, nobody listening.
final class LoopbackPeer: @unchecked Sendable {
    enum Behaviour: Equatable {
        /// Accepts connections and never answers.
        case silent
        /// Accepts each connection and closes it at once, counting them.
        case hangUp
        /// Reads each request, answers with these bytes and closes, counting them.
        case answer(String)
    }

    let port: Int
    /// Each request's head, once read: the client has sent it, and is waiting.
    let requests = EventCounter("a request at the loopback peer")
    private let descriptor: Int32
    private let lock = NSLock()
    private var accepted = 0
    private var clients: [Int32] = []
    private var stopped = false
    private let acceptLoopEnded = DispatchSemaphore(value: 0)

    init(_ behaviour: Behaviour) {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        port = LoopbackAddress.bind(descriptor)
        listen(descriptor, 64)
        let thread = Thread { [self] in
            acceptLoop(behaviour)
            acceptLoopEnded.signal()
        }
        thread.start()
    }

    /// Connections accepted so far.
    var connections: Int { lock.withLock { accepted } }

    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    private func acceptLoop(_ behaviour: Behaviour) {
        while true {
            let client = accept(descriptor, nil, nil)
            guard client >= 0 else {
                if errno == EINTR { continue }
                return
            }
            let keep = lock.withLock {
                accepted += 1
                if !stopped, behaviour == .silent { clients.append(client) }
                return !stopped && behaviour == .silent
            }
            // Read what the client sent first, so a close is a FIN, not a reset.
            if Self.readHead(client) { requests.signal() }
            if !keep {
                if case .answer(let text) = behaviour {
                    let bytes = Array(text.utf8)
                    _ = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, 0) }
                }
                close(client)
            }
        }
    }

    /// Reads until the end of a request's head; `false` if the client sent none.
    private static func readHead(_ client: Int32) -> Bool {
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while received.firstRange(of: Array("\r\n\r\n".utf8)) == nil {
            let count = recv(client, &buffer, buffer.count, 0)
            if count <= 0 { return false }
            received += buffer[..<count]
        }
        return true
    }

    /// Stops accepting and closes every socket, once. The listening socket is closed only
    /// after the accept loop has ended: a descriptor number closed while `accept` may
    /// still use it could by then belong to another socket of this process (the server's).
    func stop() {
        let open: [Int32]? = lock.withLock {
            guard !stopped else { return nil }
            stopped = true
            let open = clients
            clients = []
            return open
        }
        guard let open else { return }
        for client in open { close(client) }
        shutdown(descriptor, Int32(SHUT_RDWR))
        acceptLoopEnded.wait()
        close(descriptor)
    }

    deinit {
        stop()
    }
}
