import Foundation
import Synchronization
import SpeakEasyData
import SpeakEasyServer
import TestServer
import Testing

/// The connections themselves, as serve's own NIO handler keeps them: pipelining, `Connection: close`,
/// the idle timeout, the bound on open connections, and a stop that lets a reply in flight finish.
@Suite("serve: connections")
struct ConnectionTests {
    /// An anonymous account listing: 404, as Azure hides what a request without credentials may not see;
    /// a whole reply every time.
    static let listing = "GET /\(DevelopmentAccount.name)?comp=list HTTP/1.1\r\nHost: 127.0.0.1\r\n"

    @Test("pipelined requests are answered in order, one reply each; Connection: close ends the connection after its reply")
    func pipelining() async throws {
        try await withRunningServer { server in
            let started = ContinuousClock.now
            // Three requests in one write; the last asks to close, so the exchange ends there, not after a
            // quiet 10 s.
            let reply = try await RawHTTP.exchange(
                port: server.port(.blob), Array((Self.listing + "\r\n" + Self.listing + "\r\n" + Self.listing + "Connection: close\r\n\r\n").utf8))
            let text = String(decoding: reply, as: UTF8.self)
            #expect(RawHTTP.statuses(reply) == [404, 404, 404], "\(text)")
            #expect(text.components(separatedBy: "x-ms-request-id: ").count == 4)
            #expect(text.hasSuffix("</Error>"), "the last reply is whole")
            #expect(ContinuousClock.now - started < .seconds(5), "the server closed the connection after the last reply")
        }
    }

    @Test("a HEAD reply has the length of the body a GET would get, and no body")
    func head() async throws {
        try await withRunningServer { server in
            let reply = try await RawHTTP.exchange(
                port: server.port(.blob), Array("HEAD /\(DevelopmentAccount.name)?comp=list HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
            let text = String(decoding: reply, as: UTF8.self)
            let length = try #require(text.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length: ") }.flatMap { Int($0.dropFirst(16)) })
            #expect(length > 0)
            #expect(text.hasSuffix("\r\n\r\n"), "nothing after the headers: \(text)")
        }
    }

    @Test("a connection silent for the idle time is closed")
    func idle() async throws {
        try await withRunningServer(configure: { $0.idleTimeoutSeconds = 1 }) { server in
            let started = ContinuousClock.now
            // Nothing sent: the exchange ends when the server closes, long before 10 quiet seconds.
            let reply = try await RawHTTP.exchange(port: server.port(.table), [], quietSeconds: 10)
            #expect(reply.isEmpty)
            #expect(ContinuousClock.now - started < .seconds(5))
        }
    }

    @Test("beyond the bound on open connections, a new one waits to be accepted until one closes")
    func bound() async throws {
        try await withRunningServer(configure: { $0.maxConnections = 1; $0.idleTimeoutSeconds = 2 }) { server in
            let port = server.port(.blob)
            let started = ContinuousClock.now
            // The first connection sends nothing and is closed when idle, after 2 s.
            let holder = Task { try await RawHTTP.exchange(port: port, [], quietSeconds: 10) }
            try await Task.sleep(for: .milliseconds(300))
            let reply = try await RawHTTP.exchange(port: port, Array((Self.listing + "Connection: close\r\n\r\n").utf8))
            let waited = ContinuousClock.now - started
            #expect(RawHTTP.statuses(reply) == [404])
            #expect(waited >= .milliseconds(1500), "answered only once the first connection closed (after \(waited))")
            _ = try await holder.value
        }
    }

    @Test("when the server stops, a reply in flight is written whole, and then nothing more is accepted")
    func stopLetsRepliesFinish() async throws {
        let port = Mutex(0)
        let inFlight = try await withRunningServer(configure: { $0.latencyMilliseconds = 1500 }) { server in
            port.withLock { $0 = server.port(.blob) }
            let request = Task { try await RawHTTP.exchange(port: server.port(.blob), Array((Self.listing + "\r\n").utf8), quietSeconds: 10) }
            // Time to connect and send, well within the reply's 1.5 s (on a busy machine too).
            try await Task.sleep(for: .milliseconds(500))
            return request  // the server stops now, with the request waiting for its reply
        }
        let started = ContinuousClock.now
        let reply = try await inFlight.value
        let text = String(decoding: reply, as: UTF8.self)
        #expect(RawHTTP.statuses(reply) == [404], "\(text)")
        #expect(text.contains("Connection: close"), "the reply says the connection ends")
        #expect(text.hasSuffix("</Error>"))
        #expect(ContinuousClock.now - started < .seconds(5), "closed after the reply, not left open")
        await #expect(throws: RawHTTP.Failure.self, "no longer listening") {
            try await RawHTTP.exchange(port: port.withLock { $0 }, Array((Self.listing + "\r\n").utf8), quietSeconds: 2)
        }
    }
}
