/// How long a session token (a sign-up's or a sign-in's) lives: it ends after `idle`
/// without a request, or `absolute` after it was issued, whichever comes first; `nil`
/// lifts that limit. The operator's access keys (``TokenKind/accessKey``) are never ended
/// by time: legacy apps cannot sign in again.
///
/// ```swift
/// SessionLifetime(idle: .seconds(30 * 86_400), absolute: .seconds(90 * 86_400))  // .standard
/// SessionLifetime.unlimited  // `--session-idle-timeout never --session-lifetime never`
/// ```
public struct SessionLifetime: Sendable, Hashable {
    public var idle: Duration?
    public var absolute: Duration?

    public init(idle: Duration?, absolute: Duration?) {
        self.idle = idle
        self.absolute = absolute
    }

    /// 30 days idle, 90 days in all: a device used monthly stays signed in, and a stolen
    /// token works for a quarter at most.
    public static let standard = SessionLifetime(
        idle: .seconds(30 * 86_400), absolute: .seconds(90 * 86_400))

    /// Sessions never expire (until revoked).
    public static let unlimited = SessionLifetime(idle: nil, absolute: nil)

    /// When `session` ends, in milliseconds since 1970; `nil` for never.
    public func expiry(of session: Session) -> Int64? {
        guard session.kind == .session else { return nil }
        let ends = [
            idle.map { session.lastUsedAt + Self.milliseconds($0) },
            absolute.map { session.createdAt + Self.milliseconds($0) },
        ].compactMap { $0 }
        return ends.min()
    }

    /// Whether `session` still works at `now` (milliseconds since 1970).
    public func isLive(_ session: Session, at now: Int64) -> Bool {
        expiry(of: session).map { now < $0 } ?? true
    }

    package static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000)
        return overflow
            ? .max
            : product.addingReportingOverflow(attoseconds / 1_000_000_000_000_000).partialValue
    }
}
