import Foundation
import HTTPTypes
import NIOCore
import SpeakEasyModel
import SpeakEasyProtocol
import SpeakEasyStorage

/// Answers one service's requests, in two steps: from the head, before the body is read, decides
/// whether to take it (``admit(_:from:)``: faults, path, account, credentials, size); with the body, hands
/// it to the service. Either step writes the ``WireError`` thrown as Azure's error reply, and adds the
/// headers every Azure reply carries.
struct ServiceResponder: Sendable {
    let service: StorageService
    let server: StorageServer

    /// The reply to `request`, admitted from its head (``admit(_:from:)``) and read whole; nil when the
    /// connection was dropped instead (a fault: the reply lost).
    func respond(to request: ServiceRequest, channel: any Channel) async -> ServiceResponse? {
        let started = ContinuousClock.now
        let exchange = request.admitted.exchange
        let head = exchange.head
        var response: ServiceResponse
        do {
            switch service {
            case .blob:
                response = try await BlobService(server: server, exchange: exchange).respond(
                    to: request,
                    path: request.admitted.path
                )
            case .table:
                response = try await TableService(server: server, exchange: exchange, path: request.admitted.path)
                    .respond(to: request)
            }
        } catch {
            response = errorResponse(error, exchange)
        }
        if request.admitted.losesReply {
            log(head, status: Int(response.status.code), milliseconds: 0, note: " (reply lost by --faults)")
            try? await channel.close()
            return nil
        }
        if server.configuration.latencyMilliseconds > 0 {
            try? await Task.sleep(for: .milliseconds(server.configuration.latencyMilliseconds))
        }
        return finished(response, exchange, started: started)
    }

    /// Writes a request's line to stderr unless logging is off: method, path, query (a SAS's
    /// signature redacted), status, the time taken, and what happened to it when that is unusual.
    func log(_ head: RequestHead, status: Int, milliseconds: @autoclosure () -> Double, note: String = "") {
        guard server.configuration.logRequests else { return }
        RequestLog.write(
            RequestLog.line(
                method: head.method,
                path: head.path,
                query: head.query,
                status: status,
                milliseconds: milliseconds()
            ) + note
        )
    }

    /// The time since `started`, in milliseconds.
    static func milliseconds(since started: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - started
        return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }

    /// Adds the headers every reply carries to `response`, and logs it.
    func finished(
        _ response: ServiceResponse,
        _ exchange: Exchange,
        started: ContinuousClock.Instant
    ) -> ServiceResponse {
        var response = response
        addCommonHeaders(&response, exchange)
        if response.status == .serviceUnavailable { response.headers[.retryAfter] = "1" }
        log(exchange.head, status: Int(response.status.code), milliseconds: Self.milliseconds(since: started))
        return response
    }

    /// The reply a request meets with `error`: the ``WireError`` it is, or, when no map knows it, a
    /// bug answered as Azure answers its own, and told on stderr.
    func errorResponse(_ error: any Error, _ exchange: Exchange) -> ServiceResponse {
        if let error = error as? any WireError { return errorResponse(error, exchange) }
        RequestLog.write("serve: internal error answering \(exchange.head.method) \(exchange.head.path): \(error)")
        return errorResponse(
            service.wireErrorType.internalError("The server encountered an internal error: \(error)"),
            exchange
        )
    }

    /// The reply `error` renders, in its service's body format.
    func errorResponse(_ error: any WireError, _ exchange: Exchange) -> ServiceResponse {
        let reply = error.reply(to: exchange.head, requestID: exchange.requestID, time: exchange.now)
        var headers = HTTPFields()
        for header in reply.headers {
            headers.append(HTTPField(name: HTTPField.Name(header.name)!, value: header.value))
        }
        return ServiceResponse(
            status: HTTPResponse.Status(code: reply.status, reasonPhrase: reply.reasonPhrase),
            headers: headers,
            body: ByteBuffer(bytes: reply.body)
        )
    }

    private func addCommonHeaders(_ response: inout ServiceResponse, _ exchange: Exchange) {
        // Appended: the services never set these (setting would look each name up first).
        response.headers.append(HTTPField(name: .xMsRequestID, value: exchange.requestID))
        let version = exchange.head.header("x-ms-version").flatMap { StorageVersion.isAccepted($0) ? $0 : nil }
        response.headers.append(HTTPField(name: .xMsVersion, value: version ?? Exchange.defaultVersion))
        response.headers.append(HTTPField(name: .date, value: HTTPDate.format(exchange.now)))
        if let client = exchange.head.header("x-ms-client-request-id") {
            response.headers.append(HTTPField(name: .xMsClientRequestID, value: client))
        }
    }
}

extension StorageService {
    /// The service's wire error type, for the refusals that come before the service: a fault, the
    /// path, the account.
    var wireErrorType: any WireError.Type {
        switch self {
        case .blob: BlobServiceError.self
        case .table: TableServiceError.self
        }
    }

    /// The service's wire error for `error` (its one map, ``BlobService/wireError(_:)`` or
    /// ``TableService/wireError(_:)``); an error the map does not know is handed on as it is.
    func wireError(_ error: any Error) -> any Error {
        switch self {
        case .blob: BlobService.wireError(error)
        case .table: TableService.wireError(error)
        }
    }
}

extension RequestHead {
    /// What stands for a request whose head could not be read (bytes that are no HTTP), in the log.
    static let unread = RequestHead(method: "-", path: "-", query: "", headers: [])
}

/// One request as the services see it: its head, the id of its reply, and the time it arrived.
struct Exchange: Sendable {
    /// The version answered when a request names none (an anonymous browser GET).
    static let defaultVersion = "2021-12-02"
    let head: RequestHead
    /// The query's parameters, decoded once for the whole request.
    let query: QueryItems
    let requestID: String
    let now: EdmDateTime
    /// The client's IP address, as its socket gives it; nil when unknown.
    var sourceIP: String? = nil
}
