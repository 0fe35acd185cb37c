import NIOCore
import SpeakEasyCore

/// A service's open connections, and the bound on them: at most `limit` at once.
///
/// At the bound, a new connection takes the slot of the one that has been idle the longest between
/// requests (it is closed, as nginx reuses its idle keep-alive connections and NIO-based servers
/// close them): otherwise a few hundred clients holding keep-alive connections open without a
/// request would lock every other client out for the idle timeout. Only while every open connection
/// is busy does accepting pause, so the bound still holds the work in hand.
final class OpenConnections: Sendable {
    private struct Entry {
        let channel: any Channel
        /// Since when the connection has been between requests; nil while it is busy (or already
        /// chosen to be closed).
        var idleSince: NIODeadline?
    }

    private struct State {
        var open: [ObjectIdentifier: Entry] = [:]
        var stopping = false
        /// Accepting is paused: the bound is reached and no connection was idle.
        var paused = false
    }

    /// Sent to the connection chosen to make room: it closes if it is still between requests.
    struct Evict: Sendable {}

    private let state = Locked(State())
    private let limit: Int

    init(limit: Int) { self.limit = limit }

    /// Registers a new connection (idle: it has sent nothing yet) and makes room for it at the bound;
    /// true when the listener is stopping (the connection is then to close after its first reply).
    func opened(_ channel: any Channel) -> Bool {
        let id = ObjectIdentifier(channel)
        let (stopping, evicted, pause) = state.withLock { state in
            state.open[id] = Entry(channel: channel, idleSince: .now())
            var evicted: (any Channel)?
            if state.open.count > limit, let oldest = Self.longestIdle(state.open, except: id) {
                state.open[oldest]!.idleSince = nil
                evicted = state.open[oldest]!.channel
            }
            // At the bound with no idle connection left to make room for the next one: pause.
            let pause =
                state.open.count >= limit
                && !state.open.values.contains { $0.idleSince != nil && ObjectIdentifier($0.channel) != id }
            if pause { state.paused = true }
            return (state.stopping, evicted, pause)
        }
        evicted?.pipeline.fireUserInboundEventTriggered(Evict())
        if pause { updateAccepting(channel.parent) }
        channel.closeFuture.whenComplete { _ in
            let resume = self.state.withLock { state in
                state.open[id] = nil
                guard state.paused, state.open.count < self.limit else { return false }
                state.paused = false
                return true
            }
            if resume { self.updateAccepting(channel.parent) }
        }
        return stopping
    }

    /// The connection is between requests (`idle`) or busy with one. An idle one while accepting is
    /// paused lets the next client in, in its place.
    func connection(_ channel: any Channel, idle: Bool) {
        let resume = state.withLock { state in
            let id = ObjectIdentifier(channel)
            guard state.open[id] != nil else { return false }
            state.open[id]!.idleSince = idle ? .now() : nil
            guard idle, state.paused else { return false }
            state.paused = false
            return true
        }
        if resume { updateAccepting(channel.parent) }
    }

    /// Sets accepting on the listening channel as the state now says, on that channel's loop, so that
    /// a pause and a resume asked for from two loops at once land in the order of the state.
    private func updateAccepting(_ server: (any Channel)?) {
        guard let server else { return }
        server.eventLoop.execute {
            let accept = !self.state.withLock { $0.paused }
            server.setOption(.autoRead, value: accept).whenComplete { _ in }
        }
    }

    private static func longestIdle(_ open: [ObjectIdentifier: Entry], except id: ObjectIdentifier) -> ObjectIdentifier?
    {
        var oldest: (id: ObjectIdentifier, since: NIODeadline)?
        for (key, entry) in open where key != id {
            if let since = entry.idleSince, since < oldest?.since ?? .distantFuture { oldest = (key, since) }
        }
        return oldest?.id
    }

    /// Marks the listener as stopping; the connections open until now.
    func stop() -> [any Channel] {
        state.withLock { state in
            state.stopping = true
            return state.open.values.map(\.channel)
        }
    }

    func any() -> (any Channel)? { state.withLock { $0.open.values.first?.channel } }
}
