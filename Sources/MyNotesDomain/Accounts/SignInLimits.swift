/// How many failed sign-ins are tolerated within a sliding window, counted apart for
/// each account and for each client address; past that, sign-ins are refused with
/// `429` until the oldest failure in the window has aged out.
///
/// ```swift
/// SignInLimits(perAccount: 5, perAddress: 20, window: .seconds(900))
/// ```
public struct SignInLimits: Sendable, Hashable {
    /// Failures for one email (guessing one account's password from anywhere).
    public var perAccount: Int
    /// Failures from one address (trying many accounts from one place).
    public var perAddress: Int
    public var window: Duration

    public init(perAccount: Int = 5, perAddress: Int = 20, window: Duration = .seconds(900)) {
        self.perAccount = perAccount
        self.perAddress = perAddress
        self.window = window
    }
}
