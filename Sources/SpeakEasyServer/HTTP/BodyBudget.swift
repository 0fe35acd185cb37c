import SpeakEasyCore

/// The bytes of request bodies that the server holds at once, across every connection of both
/// services: without it, each connection could buffer up to its service's largest body (64 MiB for a
/// blob), and memory would grow with the number of clients sending.
///
/// A connection takes its request's declared `Content-Length` before reading the body (a chunked
/// body, part by part as it comes) and gives it back once the request is answered or the connection
/// closes. A request that cannot have its share is answered 503 `ServerBusy` at once rather than made
/// to wait with its reads paused: a waiting request would hold its connection and its client's
/// timeout while the budget may be held by slow senders for minutes, and nothing would tell the
/// client why; 503 `ServerBusy` with `Retry-After` is what Azure answers under load, and every Azure
/// SDK retries it with backoff.
final class BodyBudget: Sendable {
    private let limit: Int
    private let taken = Locked(0)

    init(limit: Int) { self.limit = limit }

    /// Takes `bytes` from the budget; false (and nothing taken) when fewer are left.
    func take(_ bytes: Int) -> Bool {
        guard bytes > 0 else { return true }
        return taken.withLock { taken in
            guard bytes <= limit - taken else { return false }
            taken += bytes
            return true
        }
    }

    /// Gives back `bytes` taken before.
    func giveBack(_ bytes: Int) {
        guard bytes > 0 else { return }
        taken.withLock { $0 -= bytes }
    }
}
