import MyNotesDomain

/// The limits' counters in the database, on its clock, so every server counts alike.
/// These writes are not a client's data: they commit without waiting for the disk
/// (`synchronous_commit = off` for their transaction); a crash forgets at most the last
/// fraction of a second of them.
extension PostgreSQLNoteStore: SharedLimitStore {
    /// Every server on the database counts sign-ins and sign-ups in it, so that a limit
    /// holds across servers behind a load balancer.
    public var sharedLimits: (any SharedLimitStore)? { self }

    public func take(from buckets: [TokenBucket]) async throws(StoreError) -> Duration? {
        guard !buckets.isEmpty else { return nil }
        // One order for every server's locks, so two takes never wait for each other.
        let ordered = buckets.sorted { $0.key < $1.key }
        return try await write { connection throws(PostgreSQLError) -> Duration? in
            try connection.transaction { () throws(PostgreSQLError) -> Duration? in
                try connection.execute("SET LOCAL synchronous_commit TO off")
                var wait = Duration.zero
                var refilled: [(key: String, tokens: Double)] = []
                var now: Int64 = 0
                for bucket in ordered {
                    let interval = Double(bucket.interval / .milliseconds(1))
                    let rows = try connection.query(
                        """
                        WITH now AS (SELECT \(Self.now) AS ms),
                        seen AS (
                            INSERT INTO rate_buckets (key, tokens, counted_at)
                            SELECT $1, $2::double precision, ms FROM now
                            ON CONFLICT (key) DO UPDATE SET key = excluded.key
                            RETURNING tokens, counted_at)
                        SELECT tokens, counted_at, ms FROM seen, now
                        """, .text(bucket.key), .integer(Int64(bucket.burst)))
                    let stored = Double(rows.text(0, 0)) ?? 0
                    now = rows.int64(0, 2)
                    let elapsed = Double(max(0, now - rows.int64(0, 1)))
                    let tokens =
                        interval > 0
                        ? min(Double(bucket.burst), stored + elapsed / interval)
                        : Double(bucket.burst)
                    if tokens < 1 { wait = max(wait, bucket.interval * (1 - tokens)) }
                    refilled.append((bucket.key, tokens))
                }
                guard wait == .zero else { return wait }
                for (key, tokens) in refilled {
                    _ = try connection.query(
                        "UPDATE rate_buckets SET tokens = $2::double precision, counted_at = $3 WHERE key = $1",
                        .text(key), .text(String(tokens - 1)), .integer(now))
                }
                // Now and then, forget buckets untouched for an hour: they are full again.
                if now % 64 == 0 {
                    _ = try connection.query(
                        "DELETE FROM rate_buckets WHERE counted_at < $1", .integer(now - 3_600_000))
                }
                return nil
            }
        }
    }

    public func reserveFailure(
        keys: [FailureLimit], within window: Duration
    ) async throws(StoreError) -> FailureReservation {
        guard !keys.isEmpty else { return .reserved(ids: []) }
        // One order for every server's locks, so two reservations never wait for each other.
        let ordered = keys.sorted { $0.key < $1.key }
        let windowMilliseconds = Int64(window / .milliseconds(1))
        return try await write { connection throws(PostgreSQLError) -> FailureReservation in
            try connection.transaction { () throws(PostgreSQLError) -> FailureReservation in
                try connection.execute("SET LOCAL synchronous_commit TO off")
                // A key may have no row yet, so no row to lock: its name's lock instead,
                // held to the end of the transaction, serializes the check and the count.
                _ = try connection.query(
                    """
                    SELECT pg_advisory_xact_lock(hashtextextended(key, 0))
                    FROM unnest($1::text[]) WITH ORDINALITY AS k(key, n) ORDER BY n
                    """, .texts(ordered.map(\.key)))
                let rows = try connection.query(
                    """
                    WITH now AS (SELECT \(Self.now) AS ms)
                    SELECT key, count(*), ms - min(failed_at) FROM sign_in_failures, now
                    WHERE key = ANY($1::text[]) AND failed_at > ms - $2
                    GROUP BY key, ms
                    """, .texts(ordered.map(\.key)), .integer(windowMilliseconds))
                var wait: Duration?
                for row in 0..<rows.count {
                    guard let limit = ordered.first(where: { $0.key == rows.text(row, 0) })?.limit,
                        rows.int64(row, 1) >= Int64(limit)
                    else { continue }
                    let left = window - .milliseconds(rows.int64(row, 2))
                    wait = max(wait ?? left, left)
                }
                if let wait { return .refused(retryAfter: wait) }
                let inserted = try connection.query(
                    """
                    INSERT INTO sign_in_failures (key, failed_at)
                    SELECT unnest($1::text[]), \(Self.now)
                    RETURNING id
                    """, .texts(ordered.map(\.key)))
                // Failures older than a day count for no window; forgotten now and then.
                _ = try connection.query(
                    """
                    DELETE FROM sign_in_failures
                    WHERE key = ANY($1::text[]) AND failed_at < \(Self.now) - 86400000
                    """, .texts(ordered.map(\.key)))
                return .reserved(ids: (0..<inserted.count).map { inserted.int64($0, 0) })
            }
        }
    }

    public func releaseFailures(_ ids: [Int64]) async throws(StoreError) {
        guard !ids.isEmpty else { return }
        try await write { connection throws(PostgreSQLError) in
            try connection.transaction { () throws(PostgreSQLError) in
                try connection.execute("SET LOCAL synchronous_commit TO off")
                _ = try connection.query(
                    "DELETE FROM sign_in_failures WHERE id = ANY($1::bigint[])", .integers(ids))
            }
        }
    }

    public func clearFailures(key: String, releasing ids: [Int64]) async throws(StoreError) {
        try await write { connection throws(PostgreSQLError) in
            try connection.transaction { () throws(PostgreSQLError) in
                try connection.execute("SET LOCAL synchronous_commit TO off")
                _ = try connection.query(
                    "DELETE FROM sign_in_failures WHERE key = $1 OR id = ANY($2::bigint[])",
                    .text(key), .integers(ids))
            }
        }
    }
}
