import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A bound, listening TCP socket. Binding it ourselves lets `--port 0` learn the
/// port the kernel chose, and turns bind failures into clear errors.
struct ListeningSocket {
    let descriptor: Int32
    let port: Int

    init(host: String, port: Int, backlog: Int32) throws(HTTPServerError) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var info: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &info) == 0, let address = info else {
            throw .cannotResolve(host: host)
        }
        defer { freeaddrinfo(info) }

        let descriptor = socket(address.pointee.ai_family, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else {
            throw .cannotBind(host: host, port: port, reason: String(cString: strerror(errno)))
        }
        var yes: Int32 = 1
        setsockopt(
            descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        // Non-blocking: every event loop accepts from it until the
        // queue is empty, and a blocking accept would park a worker, and every
        // connection it serves, until the next client arrives.
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0,
            bind(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0,
            listen(descriptor, backlog) == 0
        else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw .cannotBind(host: host, port: port, reason: reason)
        }

        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getsockname(descriptor, $0, &length)
            }
        }
        guard named == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw .cannotBind(host: host, port: port, reason: reason)
        }
        let networkPort: UInt16 =
            switch Int32(storage.ss_family) {
            case AF_INET6:
                withUnsafePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                        $0.pointee.sin6_port
                    }
                }
            default:
                withUnsafePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port }
                }
            }
        self.descriptor = descriptor
        self.port = Int(UInt16(bigEndian: networkPort))
    }
}
