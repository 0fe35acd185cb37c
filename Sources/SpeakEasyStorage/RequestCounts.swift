/// An account that reaches its data by requests (a remote one) and counts them, for a run's summary.
/// A local account has no requests to count, so it is not one.
package protocol CountsRequests: StorageAccount {
    /// The requests sent so far.
    var requestCounts: RequestCounts { get }
}

/// What a remote account's client has sent: requests, and the tries again among them (a busy
/// service, a dropped connection).
package struct RequestCounts: Hashable, Sendable {
    /// Requests, not counting tries again.
    package var requests: Int
    package var retries: Int

    package init(requests: Int, retries: Int) {
        self.requests = requests
        self.retries = retries
    }
}
