import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Many raw TCP connections from one source address, as a slowloris attacker holds them:
/// each sends the start of a request line and then one byte now and then, never
/// finishing its head. Tells which ones the server has closed. Safe to use from a
/// trickling thread and the test at once.
final class SocketSwarm: @unchecked Sendable {
    private var descriptors: [Int32] = []
    private var closed: Set<Int32> = []
    private var hungUp: Set<Int32> = []
    private let lock = NSLock()

    /// Opens `count` connections from `source` (any 127.x.y.z is loopback on Linux) to
    /// 127.0.0.1:`port`, without waiting for the server to accept them.
    init(count: Int, from source: String, port: Int) throws {
        for _ in 0..<count {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { throw SwarmError.system("socket", errno) }
            descriptors.append(descriptor)
            var local = Self.address(source, port: 0)
            var remote = Self.address("127.0.0.1", port: port)
            let flags = fcntl(descriptor, F_GETFL)
            _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else { throw SwarmError.system("bind", errno) }
            let connected = withUnsafePointer(to: &remote) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 || errno == EINPROGRESS else {
                throw SwarmError.system("connect", errno)
            }
        }
    }

    deinit {
        for descriptor in descriptors where !hungUp.contains(descriptor) { close(descriptor) }
    }

    /// Sends `bytes` on every connection still open; a failed send marks it closed.
    func send(_ bytes: [UInt8]) {
        lock.lock()
        defer { lock.unlock() }
        for descriptor in descriptors where !closed.contains(descriptor) {
            let sent = bytes.withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent < 0, errno != EAGAIN, errno != ENOTCONN { closed.insert(descriptor) }
        }
    }

    /// How many connections the server has closed (end of stream or reset) so far.
    func closedCount() -> Int {
        lock.lock()
        defer { lock.unlock() }
        var fds = descriptors.filter { !closed.contains($0) }.map {
            pollfd(fd: $0, events: Int16(POLLIN), revents: 0)
        }
        guard !fds.isEmpty else { return closed.count }
        _ = poll(&fds, nfds_t(fds.count), 0)
        var scratch = [UInt8](repeating: 0, count: 512)
        for entry in fds where entry.revents != 0 {
            let count = recv(entry.fd, &scratch, scratch.count, Int32(MSG_DONTWAIT))
            if count == 0 || (count < 0 && errno != EAGAIN) { closed.insert(entry.fd) }
        }
        return closed.count
    }

    /// Waits until every connection is established, or `limit` passes.
    func waitUntilConnected(_ limit: Duration = .seconds(5)) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLOUT), revents: 0) }
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            _ = poll(&fds, nfds_t(fds.count), 10)
            if fds.allSatisfy({ $0.revents & Int16(POLLOUT) != 0 }) { return true }
        }
        return false
    }

    /// Reads from the first connection until what came satisfies `enough`, the
    /// connection ends, or `limit` passes; returns what came.
    func receive(
        within limit: Duration = .seconds(10), until enough: ([UInt8]) -> Bool
    ) -> [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        let deadline = ContinuousClock.now + limit
        while !enough(received), ContinuousClock.now < deadline {
            var entry = pollfd(fd: descriptors[0], events: Int16(POLLIN), revents: 0)
            _ = poll(&entry, 1, 10)
            let got = recv(descriptors[0], &chunk, chunk.count, Int32(MSG_DONTWAIT))
            if got == 0 { break }
            if got > 0 { received.append(contentsOf: chunk[..<got]) }
        }
        return received
    }

    /// Closes the first `count` connections from this side.
    func hangUp(_ count: Int) {
        lock.lock()
        defer { lock.unlock() }
        for descriptor in descriptors.prefix(count) where !hungUp.contains(descriptor) {
            close(descriptor)
            hungUp.insert(descriptor)
            closed.insert(descriptor)
        }
    }

    private static func address(_ text: String, port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr(text)
        return address
    }
}

enum SwarmError: Error {
    case system(String, Int32)
}
