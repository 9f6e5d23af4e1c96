import Foundation
import MyNotesTesting

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP relay on the loopback interface in front of a server, that cuts every
/// connection through it at once when asked: the network dropping, as a client sees it,
/// mid-answer, while the server keeps running. It records each connection's request head,
/// to check what a client sent when it came back.
final class TCPRelay: @unchecked Sendable {
    let port: Int
    /// Each connection accepted.
    let connections = EventCounter("a connection through the relay")
    /// Each connection ended (by either side, or cut).
    let closed = EventCounter("a connection through the relay ended")
    /// Each chunk passed on from the server to a client.
    let answers = EventCounter("bytes from the server through the relay")
    private let target: Int
    private let listener: Int32
    // Guarded by `lock`.
    private let lock = NSLock()
    private var open: [Int32] = []
    private var heads: [String] = []
    /// The method of the request each connection (by its server side) carries last.
    private var methods: [Int32: String] = [:]
    /// Whether answers to POST requests are swallowed: the server gets the request and
    /// acts on it, the client sees the connection drop before any answer.
    private var swallowingPosts = false
    /// The start of what the server sent on each connection (up to 64 KiB).
    private var answered: [Int32: [UInt8]] = [:]
    private var stopped = false
    private let acceptLoopEnded = DispatchSemaphore(value: 0)

    init(to target: Int) {
        self.target = target
        listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        port = LoopbackAddress.bind(listener)
        listen(listener, 64)
        Thread { [self] in
            acceptLoop()
            acceptLoopEnded.signal()
        }.start()
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// The head of each request that came through, in order of arrival.
    var requestHeads: [String] { lock.withLock { heads } }

    /// Swallows the answers to POST requests from now on (`true`), or no longer.
    func swallowAnswersToPosts(_ swallowing: Bool) {
        lock.withLock { swallowingPosts = swallowing }
    }

    /// Waits until the server has sent `text` to a client through the relay.
    func waitForAnswer(containing text: String, timeout: Duration = .seconds(20)) async throws {
        let deadline = ContinuousClock.now + timeout
        var seen = answers.value
        while !lock.withLock({
            answered.values.contains { String(decoding: $0, as: UTF8.self).contains(text) }
        }) {
            guard ContinuousClock.now < deadline else {
                throw WaitTimeout("'\(text)' from the server", limit: timeout)
            }
            seen += 1
            try await answers.wait(for: seen, timeout: deadline - ContinuousClock.now)
        }
    }

    /// Cuts every connection open now, both ways.
    func cutAll() {
        // Under the lock: a socket closed meanwhile could have had its number reused.
        lock.withLock {
            for socket in open { shutdown(socket, Int32(SHUT_RDWR)) }
        }
    }

    func stop() {
        let stopping = lock.withLock {
            guard !stopped else { return false }
            stopped = true
            for socket in open { shutdown(socket, Int32(SHUT_RDWR)) }
            return true
        }
        guard stopping else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        acceptLoopEnded.wait()
        close(listener)
    }

    deinit {
        stop()
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                if errno == EINTR { continue }
                return
            }
            let server = Self.connect(to: target)
            let kept = lock.withLock {
                guard !stopped, server >= 0 else { return false }
                open += [client, server]
                return true
            }
            guard kept else {
                close(client)
                if server >= 0 { close(server) }
                continue
            }
            connections.signal()
            // Each direction on its own thread; the first to end closes both sockets.
            let finished = DispatchGroup()
            for (from, to, recording) in [(client, server, true), (server, client, false)] {
                finished.enter()
                Thread { [self] in
                    pump(from: from, to: to, recordingHead: recording)
                    finished.leave()
                }.start()
            }
            finished.notify(queue: .global()) { [self] in
                lock.withLock {
                    open.removeAll { $0 == client || $0 == server }
                    answered[server] = nil
                    methods[server] = nil
                    close(client)
                    close(server)
                }
                closed.signal()
            }
        }
    }

    private func pump(from source: Int32, to destination: Int32, recordingHead: Bool) {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        var head: [UInt8]? = recordingHead ? [] : nil
        while true {
            let count = recv(source, &buffer, buffer.count, 0)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            if recordingHead, let space = buffer[..<min(count, 8)].firstIndex(of: 0x20) {
                // Requests here are small: one starts a chunk, its method first.
                let method = String(decoding: buffer[..<space], as: UTF8.self)
                lock.withLock { methods[destination] = method }
            }
            let swallowed = lock.withLock {
                !recordingHead && swallowingPosts && methods[source] == "POST"
            }
            if swallowed { break }
            if var seen = head {
                seen += buffer[..<count]
                if let end = seen.firstRange(of: Array("\r\n\r\n".utf8)) {
                    let text = String(decoding: seen[..<end.lowerBound], as: UTF8.self)
                    lock.withLock { heads.append(text) }
                    head = nil
                } else {
                    head = seen
                }
            }
            var sent = 0
            while sent < count {
                let written = buffer.withUnsafeBytes {
                    send(destination, $0.baseAddress! + sent, count - sent, Int32(MSG_NOSIGNAL))
                }
                guard written > 0 else { break }
                sent += written
            }
            if sent < count { break }
            if !recordingHead {
                lock.withLock {
                    if answered[source, default: []].count < 65_536 {
                        answered[source, default: []] += buffer[..<count]
                    }
                }
                answers.signal()
            }
        }
        shutdown(source, Int32(SHUT_RDWR))
        shutdown(destination, Int32(SHUT_RDWR))
    }

    private static func connect(to port: Int) -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            return -1
        }
        return descriptor
    }
}
