import HTTPCore

extension RESTProblem {
    /// `410`: the cursor is older than the tombstones kept, or from another database; the
    /// client syncs again from nothing. Its `type` tells it from any other `410`.
    static var cursorExpired: RESTProblem {
        var problem = RESTProblem(.gone, .cursorExpired)
        problem.type = "urn:mynotes:problem:cursor-expired"
        return problem
    }

    /// `429`: the account holds as many change streams as it may.
    static func tooManyStreams(_ limit: Int, retryAfter wait: Duration) -> RESTProblem {
        var problem = RESTProblem(.tooManyRequests, .tooManyStreams(limit))
        problem.headers["Retry-After"] = String(retryAfterSeconds(wait))
        return problem
    }

    /// `503`: the server holds as many change streams as it may.
    static func streamsFull(retryAfter wait: Duration) -> RESTProblem {
        var problem = RESTProblem(.serviceUnavailable, .streamsFull)
        problem.headers["Retry-After"] = String(retryAfterSeconds(wait))
        return problem
    }
}
