/// When and how long to wait before sending a request again.
///
/// Azure's guidance: retry 408, 429, 500, 502, 503 and 504, and a connection that dropped or could
/// not be made, with exponential backoff and jitter; a `Retry-After` the service sends overrides the
/// backoff (bounded by `maximumDelay`, so a misbehaving server cannot stall a run). A connection
/// refused on loopback is not tried again (``StorageHTTPClient``): nothing runs on that port.
package struct RetryPolicy: Sendable {
    /// Tries in all, the first included.
    package var attempts: Int
    package var baseDelay: Duration
    package var maximumDelay: Duration

    package init(attempts: Int = 6, baseDelay: Duration = .milliseconds(200), maximumDelay: Duration = .seconds(30)) {
        self.attempts = attempts
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
    }

    /// Statuses that say "try again later" rather than "this request is wrong".
    package static func isRetriable(status: Int) -> Bool {
        [408, 429, 500, 502, 503, 504].contains(status)
    }

    /// The wait before try number `attempt + 1` (`attempt` counts from 1): `Retry-After` seconds when
    /// given, else base × 2^(attempt-1) with full jitter, at most `maximumDelay`.
    package func delay(after attempt: Int, retryAfter: String?, random: Double = Double.random(in: 0...1)) -> Duration {
        if let retryAfter, let seconds = Int(retryAfter.filter { $0 != " " && $0 != "\t" }), seconds >= 0 {
            return min(.seconds(seconds), maximumDelay)
        }
        let exponential = baseDelay * (1 << min(attempt - 1, 20))
        return min(exponential, maximumDelay) * random
    }
}
