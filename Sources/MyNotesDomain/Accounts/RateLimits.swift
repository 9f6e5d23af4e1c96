/// How often sign-ups or sign-ins may come: a token bucket for each client address and
/// one shared by everyone. A bucket holds at most `burst` requests and refills one per
/// `interval`; a request finding its bucket (or the shared one) empty is `429` with
/// `Retry-After` saying when the next token arrives. `nil` means no limit of that kind.
///
/// ```swift
/// var limits = RateLimits.signUp
/// limits.perAddress = RateLimits.Rate(burst: 2, interval: .seconds(60))
/// ```
public struct RateLimits: Sendable, Hashable {
    /// A bucket's size and refill.
    public struct Rate: Sendable, Hashable {
        public var burst: Int
        public var interval: Duration

        public init(burst: Int, interval: Duration) {
            self.burst = max(1, burst)
            self.interval = interval
        }
    }

    /// One client address (an IPv6 address counts by its /64, what one host is given).
    public var perAddress: Rate?
    /// Every client together: caps the hashing work however many addresses an attacker has.
    public var overall: Rate?
    /// How many addresses are remembered at most; past that, refilled buckets and then
    /// the least recently used are forgotten, so cycling addresses cannot grow memory.
    public var trackedAddresses: Int

    public init(perAddress: Rate?, overall: Rate?, trackedAddresses: Int = 10_000) {
        self.perAddress = perAddress
        self.overall = overall
        self.trackedAddresses = max(1, trackedAddresses)
    }

    /// Sign-up: a household or an office behind one address makes a few accounts, then
    /// one per 10 s (360 an hour, not thousands); all together at most 2 a second after
    /// a burst of 10, so at 600,000 PBKDF2 iterations (~135 ms) new accounts take at
    /// most about a quarter of one core.
    public static let signUp = RateLimits(
        perAddress: Rate(burst: 5, interval: .seconds(10)),
        overall: Rate(burst: 10, interval: .milliseconds(500)))

    /// Sign-in: people mistype and sign in on several devices, so one address gets a
    /// burst of 10 then one every 2 s; all together 5 a second after a burst of 20,
    /// about 70 % of one hashing thread, leaving the queries their cores.
    public static let signIn = RateLimits(
        perAddress: Rate(burst: 10, interval: .seconds(2)),
        overall: Rate(burst: 20, interval: .milliseconds(200)))

    /// No limit: for tests and fuzzing that make many accounts from one address.
    public static let unlimited = RateLimits(perAddress: nil, overall: nil)
}
