import Glibc
import Locking

/// Token buckets per client address and overall, in memory (a restart refills them),
/// on an injected clock so tests advance time instead of waiting.
///
/// ```swift
/// let limiter = RateLimiter(limits: .signUp, clock: ContinuousClock())
/// if let wait = limiter.admit(address: "192.0.2.7") { /* 429, Retry-After: wait */ }
/// ```
package final class RateLimiter: Sendable {
    private struct Bucket {
        package var tokens: Double
        /// When `tokens` was counted, as time elapsed on the clock since the limiter was made.
        package var counted: Duration

        /// Tokens at `now`, refilled at `rate` up to its burst.
        package func tokens(at now: Duration, _ rate: RateLimits.Rate) -> Double {
            guard rate.interval > .zero else { return Double(rate.burst) }
            return min(Double(rate.burst), tokens + (now - counted) / rate.interval)
        }
    }

    private struct State {
        package var overall: Bucket?
        package var addresses: [String: Bucket] = [:]
    }

    package let limits: RateLimits
    private let state = Lock(State())
    private let stopwatch: Stopwatch

    package init(limits: RateLimits, clock: any Clock<Duration>) {
        self.limits = limits
        stopwatch = Stopwatch(on: clock)
    }

    /// Takes a token from `address`'s bucket and the overall one and answers `nil`, or,
    /// when either is empty, takes none and answers how long until both have one.
    package func admit(address: String?) -> Duration? {
        let now = stopwatch.elapsed
        let key = address.map(Self.key)
        return state.withLock { state in
            var wait = Duration.zero
            var overall: Bucket?
            if let rate = limits.overall {
                let bucket = state.overall ?? Bucket(tokens: Double(rate.burst), counted: now)
                overall = Bucket(tokens: bucket.tokens(at: now, rate), counted: now)
                wait = max(wait, Self.wait(for: overall!, rate))
            }
            var own: Bucket?
            if let key, let rate = limits.perAddress {
                let bucket =
                    state.addresses[key] ?? Bucket(tokens: Double(rate.burst), counted: now)
                own = Bucket(tokens: bucket.tokens(at: now, rate), counted: now)
                wait = max(wait, Self.wait(for: own!, rate))
            }
            guard wait == .zero else { return wait }
            if var overall {
                overall.tokens -= 1
                state.overall = overall
            }
            if let key, var own {
                own.tokens -= 1
                if state.addresses[key] == nil { makeRoom(in: &state, now: now) }
                state.addresses[key] = own
            }
            return nil
        }
    }

    /// How many addresses are remembered now.
    package var trackedAddresses: Int { state.withLock { $0.addresses.count } }

    private static func wait(for bucket: Bucket, _ rate: RateLimits.Rate) -> Duration {
        bucket.tokens >= 1 ? .zero : rate.interval * (1 - bucket.tokens)
    }

    /// Before a new address is added to a full table: forget the refilled buckets (as
    /// good as unknown), and if that is not enough the least recently used half, so
    /// the sweep's cost is shared by many additions.
    private func makeRoom(in state: inout State, now: Duration) {
        guard state.addresses.count >= limits.trackedAddresses, let rate = limits.perAddress
        else { return }
        state.addresses = state.addresses.filter {
            $0.value.tokens(at: now, rate) < Double(rate.burst)
        }
        guard state.addresses.count >= limits.trackedAddresses else { return }
        let kept = state.addresses.sorted { $0.value.counted > $1.value.counted }
            .prefix(limits.trackedAddresses / 2)
        state.addresses = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
    }

    /// An IPv4 address as it is; an IPv6 address by its /64 (one host's usual share, so
    /// the rest of its bits do not make new buckets); an IPv4-mapped one as IPv4.
    package static func key(_ address: String) -> String {
        var ipv6 = in6_addr()
        guard address.contains(":"), inet_pton(AF_INET6, address, &ipv6) == 1 else {
            return address
        }
        let bytes = withUnsafeBytes(of: ipv6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return bytes[12...].map(String.init).joined(separator: ".")
        }
        return bytes[0..<8].map { String($0, radix: 16) }.joined(separator: ":") + "::/64"
    }
}
