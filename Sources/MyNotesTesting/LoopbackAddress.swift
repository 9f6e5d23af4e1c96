#if canImport(Glibc)
    import Glibc
#endif

/// Binding test sockets to 127.0.0.1 on a port the kernel picks.
public enum LoopbackAddress {
    /// Binds `descriptor` to 127.0.0.1 on a free port and returns that port, or 0 when
    /// it cannot (`errno` says why).
    public static func bind(_ descriptor: Int32) -> Int {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { return 0 }
        var named = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let found = withUnsafeMutablePointer(to: &named) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getsockname(descriptor, $0, &length)
            }
        }
        guard found == 0 else { return 0 }
        return Int(UInt16(bigEndian: named.sin_port))
    }
}
