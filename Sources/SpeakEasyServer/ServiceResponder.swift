import Foundation
import HTTPTypes
import NIOCore
import SpeakEasyModel
import SpeakEasyProtocol
import SpeakEasyStorage

/// Answers one service's requests: parses the path, hands the request to the service, writes the
/// ``WireError`` it throws as Azure's error reply, and adds the headers every Azure reply carries.
struct ServiceResponder: Sendable {
    let service: StorageService
    let server: StorageServer

    /// The reply to `request`; nil when the connection was dropped instead (a fault).
    func respond(to request: ServiceRequest, channel: any Channel) async -> ServiceResponse? {
        let started = ContinuousClock.now
        let head = request.head
        // A query that cannot be decoded fails authentication, before a service reads a parameter.
        let query = (try? head.queryItems.get()) ?? QueryItems([])
        let exchange = Exchange(head: head, query: query, requestID: RequestIdentifier.make(), now: EdmDateTime.now())
        var response: ServiceResponse
        var loseReply = false
        do {
            if let fault = server.configuration.faults.fault(path: head.path) {
                switch fault {
                case .serverBusy:
                    throw service.wireErrorType.serverBusy("The server is busy (a fault injected by --faults).")
                case .internalError:
                    throw service.wireErrorType.internalError("The server encountered an internal error (a fault injected by --faults).")
                case .dropConnection:
                    if server.configuration.logRequests { RequestLog.write(RequestLog.line(method: head.method, path: head.path, query: head.query, status: 0, milliseconds: 0) + " (dropped by --faults)") }
                    try? await channel.close()
                    return nil
                case .loseReply:
                    loseReply = true
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
            switch service {
            case .blob: response = try await BlobService(server: server, exchange: exchange).respond(to: request, path: path)
            case .table: response = try await TableService(server: server, exchange: exchange, path: path).respond(to: request)
            }
        } catch let error as any WireError {
            response = errorResponse(error, exchange)
        } catch {
            // No map knows it: a bug, answered as Azure answers its own, and told on stderr.
            RequestLog.write("serve: internal error answering \(head.method) \(head.path): \(error)")
            response = errorResponse(service.wireErrorType.internalError("The server encountered an internal error: \(error)"), exchange)
        }
        if loseReply {
            if server.configuration.logRequests {
                RequestLog.write(RequestLog.line(method: head.method, path: head.path, query: head.query, status: Int(response.status.code), milliseconds: 0) + " (reply lost by --faults)")
            }
            try? await channel.close()
            return nil
        }
        addCommonHeaders(&response, exchange)
        if response.status == .serviceUnavailable { response.headers[.retryAfter] = "1" }
        if server.configuration.latencyMilliseconds > 0 { try? await Task.sleep(for: .milliseconds(server.configuration.latencyMilliseconds)) }
        if server.configuration.logRequests {
            let elapsed = ContinuousClock.now - started
            let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
            RequestLog.write(RequestLog.line(method: head.method, path: head.path, query: head.query, status: Int(response.status.code), milliseconds: milliseconds))
        }
        return response
    }

    /// The reply `error` renders, in its service's body format.
    private func errorResponse(_ error: any WireError, _ exchange: Exchange) -> ServiceResponse {
        let reply = error.reply(to: exchange.head, requestID: exchange.requestID, time: exchange.now)
        var headers = HTTPFields()
        for header in reply.headers { headers.append(HTTPField(name: HTTPField.Name(header.name)!, value: header.value)) }
        return ServiceResponse(
            status: HTTPResponse.Status(code: reply.status, reasonPhrase: reply.reasonPhrase), headers: headers, body: ByteBuffer(bytes: reply.body))
    }

    private func addCommonHeaders(_ response: inout ServiceResponse, _ exchange: Exchange) {
        // Appended: the services never set these (setting would look each name up first).
        response.headers.append(HTTPField(name: .xMsRequestID, value: exchange.requestID))
        let version = exchange.head.header("x-ms-version").flatMap { StorageVersion.isAccepted($0) ? $0 : nil }
        response.headers.append(HTTPField(name: .xMsVersion, value: version ?? Exchange.defaultVersion))
        response.headers.append(HTTPField(name: .date, value: HTTPDate.format(exchange.now)))
        if let client = exchange.head.header("x-ms-client-request-id") { response.headers.append(HTTPField(name: .xMsClientRequestID, value: client)) }
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

/// One request as the services see it: its head, the id of its reply, and the time it arrived.
struct Exchange: Sendable {
    /// The version answered when a request names none (an anonymous browser GET).
    static let defaultVersion = "2021-12-02"
    let head: RequestHead
    /// The query's parameters, decoded once for the whole request.
    let query: QueryItems
    let requestID: String
    let now: EdmDateTime
}
