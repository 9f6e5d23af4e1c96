#if canImport(Glibc)
    import Glibc
#endif

/// A request's peer as the socket gave it, written out as text only when someone asks:
/// most requests never need it, and formatting it on every one is wasted work.
struct PeerAddress: Sendable {
    private enum Form: Sendable {
        case text(String)
        case socket(sockaddr_storage)
    }

    private let form: Form

    init(text: String) {
        form = .text(text)
    }

    /// Copies an IPv4 or IPv6 socket address; `nil` for any other family.
    init?(_ address: UnsafePointer<sockaddr>) {
        let length: Int
        switch Int32(address.pointee.sa_family) {
        case AF_INET: length = MemoryLayout<sockaddr_in>.size
        case AF_INET6: length = MemoryLayout<sockaddr_in6>.size
        default: return nil
        }
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) {
            $0.copyMemory(from: UnsafeRawBufferPointer(start: address, count: length))
        }
        form = .socket(storage)
    }

    /// The numeric host: `127.0.0.1`, `::1`.
    var text: String? {
        switch form {
        case .text(let text):
            return text
        case .socket(var storage):
            var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            let written: UnsafePointer<CChar>? = withUnsafePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                    switch Int32(address.pointee.sa_family) {
                    case AF_INET:
                        return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                            var host = $0.pointee.sin_addr
                            return inet_ntop(AF_INET, &host, &buffer, socklen_t(buffer.count))
                        }
                    default:
                        return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                            var host = $0.pointee.sin6_addr
                            return inet_ntop(AF_INET6, &host, &buffer, socklen_t(buffer.count))
                        }
                    }
                }
            }
            guard written != nil else { return nil }
            return String(cString: buffer)
        }
    }
}
