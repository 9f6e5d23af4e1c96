/// Whether an answer read from the store is still what the store holds, so that it may
/// be given again without reading (the legacy query's answer cache). A store that cannot
/// tell keeps the defaults: nothing read from it is cached.
public protocol AnswerFreshness: Sendable {
    /// The database's state now, as far as commits go (see ``StoreChangeStamp``): taken
    /// before a read, it tells later whether the read's result is still current. `nil`
    /// when the store cannot tell, as when other servers write to the same database
    /// unseen: nothing may then be cached.
    func changeStamp() -> StoreChangeStamp?
    /// Whether what a read of `account` found, begun after `since` was taken, is still
    /// what the store holds, `now` being a stamp taken since: no write to that account
    /// and no write the store cannot attribute (another process's, say) committed in
    /// between. Writes to other accounts do not count. Never `true` for an answer older
    /// than a write to the account acknowledged before `now` was taken.
    func isUnchanged(account: Int64, since: StoreChangeStamp, now: StoreChangeStamp) -> Bool
}

extension AnswerFreshness {
    /// By default a store cannot tell; nothing read from it is cached.
    public func changeStamp() -> StoreChangeStamp? { nil }

    /// By default nothing read is current once read.
    public func isUnchanged(
        account: Int64, since: StoreChangeStamp, now: StoreChangeStamp
    ) -> Bool { false }
}
