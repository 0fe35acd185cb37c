import NIOCore
import SpeakEasyProtocol

/// What one connection lets a request hold: the bounds on its head, its body's size, the bytes all
/// connections' bodies hold together, and how slowly its body may come.
struct ConnectionLimits: Sendable {
    /// The most a connection keeps of a request's body: the service's largest operation.
    var maxBodySize: Int
    var maxHeaderCount: Int
    var maxHeaderBytes: Int
    /// The bodies buffered at once across the server.
    var budget: BodyBudget
    /// A body that starts slowly is not judged before this much time has passed since its head.
    var bodyGrace: TimeAmount
    /// The average rate, in bytes a second past the grace, below which a body is cut off.
    var minBodyBytesPerSecond: Int

    init(_ configuration: ServerConfiguration, service: StorageService, budget: BodyBudget) {
        self.init(configuration, maxBodySize: service.maxBodySize, budget: budget)
    }

    /// The bounds of `configuration` with a body of at most `maxBodySize` bytes.
    init(_ configuration: ServerConfiguration, maxBodySize: Int, budget: BodyBudget) {
        self.maxBodySize = maxBodySize
        maxHeaderCount = configuration.maxHeaderCount
        maxHeaderBytes = configuration.maxHeaderBytes
        self.budget = budget
        bodyGrace = .seconds(configuration.bodyGraceSeconds)
        minBodyBytesPerSecond = configuration.minBodyBytesPerSecond
    }

    /// Whether a body that has sent `received` bytes within `elapsed` of its head comes too slowly.
    ///
    /// Azure gives a request about ten minutes a MiB (1.7 KiB/s). The default here (1 KiB/s after
    /// 10 s, ``ServerConfiguration``) is gentler still, so a slow but real upload finishes, while a
    /// client trickling a byte a second (slowloris) is cut off seconds after the grace. A whole 64 MiB
    /// Put Blob may then take 18 hours; its budget share is what such a client holds meanwhile.
    func tooSlow(received: Int, elapsed: TimeAmount) -> Bool {
        guard elapsed > bodyGrace else { return false }
        let past = Double((elapsed - bodyGrace).nanoseconds) / 1e9
        return Double(received) < past * Double(minBodyBytesPerSecond)
    }
}

/// What the connection answers itself, by the service's error reply, before any service sees the
/// request: a head it cannot take.
enum HeadRefusal: Sendable {
    /// Bytes that are no HTTP request (400).
    case malformed
    /// An HTTP/1.1 request without exactly one `Host` (400).
    case host
    /// More header fields or header bytes than ``ConnectionLimits`` allow (431).
    case tooLarge
}

/// What the connection answers itself, by the service's error reply, when a request's body breaks a
/// bound as it comes.
enum BodyRefusal: Sendable {
    /// More bytes than the service takes (a chunked body, or more than a declared length): 413.
    case tooLarge
    /// The server-wide budget of buffered bodies is spent: 503 ServerBusy.
    case busy
    /// The body comes more slowly than ``ConnectionLimits/tooSlow(received:elapsed:)`` allows.
    case tooSlow
}
