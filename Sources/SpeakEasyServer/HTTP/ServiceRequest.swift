import SpeakEasyProtocol

/// A request as the services receive it: what was decided on its head (``AdmittedRequest``), and its
/// body, read whole by the connection before the request is handed over (never more than the
/// service takes: the connection refuses a larger one as it comes). The body is the array the
/// connection read it into, handed on to the store as it is: a body is held once, so the server's
/// ``BodyBudget`` bounds what bodies cost.
struct ServiceRequest: Sendable {
    let admitted: AdmittedRequest
    let body: [UInt8]

    var head: RequestHead { admitted.exchange.head }
    /// How the head authenticated, when that was decided from it alone.
    var authentication: RequestAuthentication? { admitted.authentication }

    /// The body, or `BodyTooLarge` when it holds more than `limit` bytes: each operation has its own
    /// limit, under the one the connection keeps.
    func collectBody(upTo limit: Int) throws(BodyTooLarge) -> [UInt8] {
        guard body.count <= limit else { throw BodyTooLarge() }
        return body
    }
}

/// A request body over its operation's limit: 413 `RequestBodyTooLarge`.
struct BodyTooLarge: Error {}
