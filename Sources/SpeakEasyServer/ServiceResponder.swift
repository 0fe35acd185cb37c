import Foundation
import HTTPTypes
import NIOCore
import SpeakEasyModel
import SpeakEasyProtocol
import SpeakEasyStorage

/// Answers one service's requests: parses the path, hands the request to the service, turns a
/// thrown ``StorageError`` into Azure's error reply, and adds the headers every Azure reply carries.
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
                    throw StorageError(.busy, account: "", "The server is busy (a fault injected by --faults).", code: "ServerBusy")
                case .internalError:
                    throw StorageError(.unavailable, account: "", "The server encountered an internal error (a fault injected by --faults).", code: "InternalError")
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
            let path = try ResourcePath(head.path)
            guard path.account == server.configuration.accountName || server.configuration.accountAliases.contains(path.account) else {
                throw StorageError(.notFound, account: "", "The specified account does not exist.", code: "ResourceNotFound")
            }
            switch service {
            case .blob: response = try await BlobService(server: server, exchange: exchange).respond(to: request, path: path)
            case .table: response = try await TableService(server: server, exchange: exchange).respond(to: request, path: path)
            }
        } catch let error as AuthorizationError {
            switch service {
            case .table:
                response = tableErrorResponse(TableServiceError(status: error.httpStatus, code: error.code.rawValue, error.detail.isEmpty ? error.message : "\(error.message) \(error.detail)"), exchange)
            case .blob:
                response = errorResponse(error.storageError(account: ""), exchange, status: HTTPResponse.Status(code: error.httpStatus), authenticationDetail: error.detail)
            }
        } catch let error as TableServiceError where service == .table {
            response = tableErrorResponse(error, exchange)
        } catch let error as StorageError where service == .table {
            response = tableErrorResponse(TableServiceError(error), exchange)
        } catch let error as StorageError {
            response = errorResponse(error, exchange)
        } catch let error as UnsupportedHTTPVerb {
            response = errorResponse(error.error, exchange, status: .methodNotAllowed)
        } catch let error as RangeNotSatisfiable {
            response = errorResponse(error.error, exchange)
            response.headers[.contentRange] = "bytes */\(error.size)"
        } catch is BodyTooLarge where service == .table {
            response = tableErrorResponse(.requestBodyTooLarge, exchange)
        } catch is BodyTooLarge {
            response = errorResponse(
                StorageError(.invalidInput, account: "", "The request body is too large and exceeds the maximum permissible limit.", code: "RequestBodyTooLarge"),
                exchange, status: .contentTooLarge)
        } catch {
            response = errorResponse(StorageError(.unavailable, account: "", "The server encountered an internal error: \(error)", code: "InternalError"), exchange)
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

    /// A Table service error, in the format the request asked for (JSON at its level, or Atom).
    private func tableErrorResponse(_ error: TableServiceError, _ exchange: Exchange) -> ServiceResponse {
        let format = TableWireFormat(answering: exchange.head)
        var headers = HTTPFields()
        headers[.contentType] = format.errorContentType
        headers[.xContentTypeOptions] = "nosniff"
        headers[.cacheControl] = "no-cache"
        let body = TableErrorBody.write(error, format: format, requestID: exchange.requestID, time: exchange.now)
        return ServiceResponse(status: HTTPResponse.Status(code: error.status), headers: headers, body: ByteBuffer(bytes: body))
    }

    private func errorResponse(_ error: StorageError, _ exchange: Exchange, status: HTTPResponse.Status? = nil, authenticationDetail: String? = nil) -> ServiceResponse {
        let time = exchange.now.description
        var headers = HTTPFields()
        headers[.contentType] = "application/xml"
        headers[.xMsErrorCode] = error.azureCode
        let message = authenticationDetail == nil ? error.message : AuthorizationError.Code(rawValue: error.azureCode)?.message ?? error.message
        let body = BlobErrorBody.xml(
            code: error.azureCode, message: message, requestID: exchange.requestID, time: time,
            authenticationDetail: authenticationDetail.flatMap { $0.isEmpty ? nil : $0 })
        return ServiceResponse(
            status: status ?? HTTPResponse.Status(code: error.httpStatus), headers: headers, body: ByteBuffer(bytes: body))
    }

    private func addCommonHeaders(_ response: inout ServiceResponse, _ exchange: Exchange) {
        // Appended: the services never set these (setting would look each name up first).
        response.headers.append(HTTPField(name: .xMsRequestID, value: exchange.requestID))
        response.headers.append(HTTPField(name: .xMsVersion, value: exchange.head.header("x-ms-version") ?? Exchange.defaultVersion))
        response.headers.append(HTTPField(name: .date, value: HTTPDate.format(exchange.now)))
        if let client = exchange.head.header("x-ms-client-request-id") { response.headers.append(HTTPField(name: .xMsClientRequestID, value: client)) }
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
