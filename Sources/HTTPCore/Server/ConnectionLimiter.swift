import Locking

#if canImport(Glibc)
    import Glibc
#endif

/// Counts open connections, in all and per client address, so that the event loops can
/// refuse one over ``ServerConfiguration/maxConnections`` or
/// ``ServerConfiguration/maxConnectionsPerAddress`` as soon as it is accepted, before any
/// of its bytes is read: the cheapest refusal there is.
///
/// One lock for all loops: it is taken twice per connection (accept and close), never per
/// request.
final class ConnectionLimiter: Sendable {
    /// An IPv4 or IPv6 address, as the key of the per-address count.
    struct Address: Hashable, Sendable {
        let high: UInt64
        let low: UInt64

        /// The address of an IPv4 or IPv6 socket address; `nil` for other families.
        init?(_ storage: sockaddr_storage) {
            var storage = storage
            switch Int32(storage.ss_family) {
            case AF_INET:
                let address = withUnsafeBytes(of: &storage) {
                    $0.load(
                        fromByteOffset: MemoryLayout<sockaddr_in>.offset(of: \.sin_addr)!,
                        as: UInt32.self)
                }
                high = 0
                low = UInt64(address)
            case AF_INET6:
                let offset = MemoryLayout<sockaddr_in6>.offset(of: \.sin6_addr)!
                (high, low) = withUnsafeBytes(of: &storage) {
                    (
                        $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self),
                        $0.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)
                    )
                }
            default:
                return nil
            }
        }
    }

    private struct Counts {
        var total = 0
        var byAddress: [Address: Int] = [:]
    }

    private let maxTotal: Int
    private let maxPerAddress: Int
    private let counts = Lock(Counts())

    init(maxTotal: Int, maxPerAddress: Int) {
        self.maxTotal = maxTotal
        self.maxPerAddress = maxPerAddress
    }

    /// Counts a new connection from `address` if both limits allow it; `false` to refuse.
    func admit(_ address: Address?) -> Bool {
        counts.withLock { counts in
            guard counts.total < maxTotal else { return false }
            if let address {
                let current = counts.byAddress[address, default: 0]
                guard current < maxPerAddress else { return false }
                counts.byAddress[address] = current + 1
            }
            counts.total += 1
            return true
        }
    }

    /// Forgets a connection that ``admit(_:)`` counted.
    func release(_ address: Address?) {
        counts.withLock { counts in
            counts.total -= 1
            guard let address, let current = counts.byAddress[address] else { return }
            counts.byAddress[address] = current > 1 ? current - 1 : nil
        }
    }
}
