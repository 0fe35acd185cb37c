import SpeakEasyModel
import SpeakEasyProtocol

/// What a request's head alone decided, handed to the body step with the body: its exchange (the
/// reply's id, the time it came), its resource path, and how it authenticated. So that nothing of the
/// head is decided twice.
struct AdmittedRequest: Sendable {
    let exchange: Exchange
    let path: ResourcePath
    /// Nil when only the body can tell: a table batch under a SAS, which must cover the table the
    /// batch's operations name.
    let authentication: RequestAuthentication?
    /// `--faults` chose to carry the request out and then lose its reply.
    var losesReply = false
}

extension ServiceResponder {
    /// Decides on a request from its head, before its body is read (`sourceIP`: the client's
    /// address, as its socket gives it): the faults `--faults` plans, the
    /// path and account, the credentials (the service's own step, ``BlobService/admit(_:)``,
    /// ``TableService/admit()``), and the declared `Content-Length` against the most the service
    /// takes. A refusal is the service's own error reply, rendered as it renders every other.
    func admit(_ head: RequestHead, from sourceIP: String? = nil) async -> Admission {
        let started = ContinuousClock.now
        // A query that cannot be decoded fails authentication, before a service reads a parameter.
        let query = (try? head.queryItems.get()) ?? QueryItems([])
        let exchange = Exchange(
            head: head,
            query: query,
            requestID: RequestIdentifier.make(),
            now: EdmDateTime.now(),
            sourceIP: sourceIP
        )
        var losesReply = false
        do {
            // Faults come first, as the request arrives: a client's retries are tested whatever it sends.
            if let fault = server.configuration.faults.fault(path: head.path) {
                switch fault {
                case .serverBusy:
                    throw service.wireErrorType.serverBusy("The server is busy (a fault injected by --faults).")
                case .internalError:
                    throw service.wireErrorType.internalError(
                        "The server encountered an internal error (a fault injected by --faults)."
                    )
                case .dropConnection:
                    log(head, status: 0, milliseconds: 0, note: " (dropped by --faults)")
                    return .refused(nil)
                case .loseReply:
                    losesReply = true
                case .delay(let milliseconds):
                    try? await Task.sleep(for: .milliseconds(milliseconds))
                }
            }
            if let version = head.header("x-ms-version"), !StorageVersion.isAccepted(version) {
                throw service.wireErrorType.unsupportedVersion(version)
            }
            let accounts = [server.configuration.accountName] + server.configuration.accountAliases
            let path: ResourcePath
            do { path = try ResourcePath.resolve(head, accounts: accounts) } catch { throw service.wireError(error) }
            guard accounts.contains(path.account) else { throw service.wireErrorType.accountNotFound }
            let authentication: RequestAuthentication?
            switch service {
            case .blob: authentication = try await BlobService(server: server, exchange: exchange).admit(path)
            case .table: authentication = try await TableService(server: server, exchange: exchange, path: path).admit()
            }
            // A length too large for Int is larger than any limit (NIO's parser has accepted its digits).
            if let declared = head.header("Content-Length").map({ Int($0) ?? .max }), declared > service.maxBodySize {
                throw service.wireError(BodyTooLarge())
            }
            return .admitted(
                AdmittedRequest(exchange: exchange, path: path, authentication: authentication, losesReply: losesReply)
            )
        } catch {
            let response = errorResponse(error, exchange)
            if server.configuration.latencyMilliseconds > 0 {
                try? await Task.sleep(for: .milliseconds(server.configuration.latencyMilliseconds))
            }
            return .refused(finished(response, exchange, started: started))
        }
    }

    /// The service's reply to a head the connection refused before any service saw it (nil: bytes
    /// that are no HTTP request, which have none), logged as every reply is.
    func reject(_ head: RequestHead?, _ refusal: HeadRefusal) -> ServiceResponse {
        let started = ContinuousClock.now
        let head = head ?? .unread
        let exchange = Exchange(
            head: head,
            query: (try? head.queryItems.get()) ?? QueryItems([]),
            requestID: RequestIdentifier.make(),
            now: EdmDateTime.now()
        )
        let error: any WireError =
            switch refusal {
            case .malformed:
                service.wireErrorType.init(
                    status: 400,
                    code: "InvalidInput",
                    message: "The request is not an HTTP/1 request."
                )
            case .host: service.wireErrorType.missingRequiredHeader("Host")
            case .tooLarge: service.wireErrorType.requestHeaderFieldsTooLarge
            }
        return finished(errorResponse(error, exchange), exchange, started: started)
    }

    /// The service's reply to a body that broke a bound as it came.
    func refuse(_ head: RequestHead, _ refusal: BodyRefusal) -> ServiceResponse {
        let started = ContinuousClock.now
        let exchange = Exchange(
            head: head,
            query: (try? head.queryItems.get()) ?? QueryItems([]),
            requestID: RequestIdentifier.make(),
            now: EdmDateTime.now()
        )
        let error: any Error =
            switch refusal {
            case .tooLarge: service.wireError(BodyTooLarge())
            case .busy:
                service.wireErrorType.serverBusy("The server holds as many request bodies as it can; retry later.")
            case .tooSlow: service.wireErrorType.operationTimedOut
            }
        return finished(errorResponse(error, exchange), exchange, started: started)
    }
}
