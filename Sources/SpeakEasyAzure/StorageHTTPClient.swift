import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOPosix
import SpeakEasyCore
package import SpeakEasyModel
package import SpeakEasyProtocol
package import SpeakEasyStorage
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A request to one of the account's services, before it is signed.
package struct StorageRequest: Sendable {
    package var service: StorageService
    package var method: String
    /// After the endpoint, percent-encoded as it is to be sent: `/Tables`, `/photos/ada.jpg`.
    package var path: String
    /// Decoded names and values; encoded when sent.
    package var query: [(name: String, value: String)]
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]

    package init(
        _ service: StorageService,
        _ method: String,
        _ path: String,
        query: [(name: String, value: String)] = [],
        headers: [(name: String, value: String)] = [],
        body: [UInt8] = []
    ) {
        self.service = service
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }
}

/// A service's answer.
package struct StorageResponse: Sendable {
    package var status: Int
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]
    /// Tries it took: more than one when the service was busy or the connection failed before.
    package var attempts = 1

    package func header(_ name: String) -> String? {
        headers.first { $0.name.equalsIgnoringASCIICase(name) }?.value
    }
}

/// Requests to one storage account over HTTP (async-http-client, on the process's NIO event loops):
/// signed with the account key or carrying the SAS token, each with a deadline, and sent again with
/// backoff when the service is busy or the connection fails (``RetryPolicy``).
///
/// Every request the toolkit sends is safe to repeat: writes are upserts or carry If-Match, and a
/// repeated insert's 409 is for its caller to take as "already there".
package final class StorageHTTPClient: Sendable {
    package let connection: AzureConnection
    package let retry: RetryPolicy
    /// The most one try may take, from connecting to the last byte of the reply.
    package let timeout: Duration
    /// The largest reply body read.
    static let maximumReplyBytes = 256 << 20
    private var client: HTTPClient { Self.client }

    /// One client for the process, like `HTTPClient.shared` (never shut down, so never released),
    /// but failing a connection at once instead of trying it again until the deadline: the
    /// ``RetryPolicy`` decides about tries, with its backoff and count.
    private static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        // AsyncHTTPClient keeps 8 connections to a host by default and queues the rest; the account's
        // own bound (`--parallel`) decides instead.
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 256
        configuration.timeout = HTTPClient.Configuration.Timeout(connect: .seconds(10), read: .seconds(60))
        configuration.decompression = .disabled
        return HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
    }()
    private let sent = Atomic(0)
    private let retried = Atomic(0)

    /// Tries in flight at once, whoever sends them; a try waiting to be sent again holds none.
    private let inFlight: AsyncSemaphore

    package init(
        connection: AzureConnection,
        retry: RetryPolicy = RetryPolicy(),
        timeout: Duration = .seconds(60),
        concurrency: Int = 64
    ) {
        self.connection = connection
        self.retry = retry
        self.timeout = timeout
        inFlight = AsyncSemaphore(permits: concurrency)
    }

    /// Tries sent so far, retries included.
    package var requestsSent: Int { sent.load(ordering: .relaxed) }

    /// Requests sent so far, and the tries again among the tries.
    package var counts: RequestCounts {
        let retries = retried.load(ordering: .relaxed)
        return RequestCounts(requests: requestsSent - retries, retries: retries)
    }

    /// Sends `request` until it gets an answer that is not "try again", or the tries run out.
    /// A reply with any status is returned; only a request that never got one throws.
    package func send(_ request: StorageRequest) async throws(StorageError) -> StorageResponse {
        var attempt = 1
        while true {
            let (outcome, refusedOnLoopback) = await inFlight.withPermit { await once(request) }
            switch outcome {
            case .success(var response)
            where !RetryPolicy.isRetriable(status: response.status) || attempt >= retry.attempts:
                response.attempts = attempt
                return response
            case .failure(let error) where error.reason != .unreachable:
                // Only a failed exchange is tried again, not a request that could not be made.
                throw error
            case .failure(let error) where refusedOnLoopback:
                // Nothing listens on this machine's port: a server that stopped, or never started.
                // No retry changes that in the seconds the backoff would wait.
                throw error
            case .failure(let error) where attempt >= retry.attempts:
                throw StorageError(.unreachable, account: error.account, error.message + " (\(attempt) tries)")
            case .success(let response):
                try await pause(retry.delay(after: attempt, retryAfter: response.header("Retry-After")))
            case .failure:
                try await pause(retry.delay(after: attempt, retryAfter: nil))
            }
            attempt += 1
            retried.add(1, ordering: .relaxed)
        }
    }

    private func pause(_ delay: Duration) async throws(StorageError) {
        do {
            try await Task.sleep(for: delay)
        } catch {
            throw StorageError(.unreachable, account: connection.accountName, "cancelled while waiting to retry")
        }
    }

    /// The URL and headers `request` goes with at `date`: the SAS token appended to the query, or the
    /// Shared Key `Authorization` computed over exactly the headers sent (``SharedKey/authorization(for:service:scheme:credentials:)``,
    /// the function `serve` verifies with). A body's `Content-Length` is among them; HTTP sends it.
    package func prepared(
        _ request: StorageRequest,
        date: EdmDateTime
    ) throws(StorageError) -> (url: String, headers: [(name: String, value: String)]) {
        let endpoint = connection.endpoint(request.service)
        var query = request.query.map {
            "\(PercentEncoding.encodePath($0.name))=\(PercentEncoding.encodePath($0.value))"
        }.joined(separator: "&")
        if case .sharedAccessSignature(let token) = connection.credential {
            query += (query.isEmpty ? "" : "&") + token
        }
        let url = endpoint + request.path + (query.isEmpty ? "" : "?" + query)
        var headers = request.headers
        headers.append((name: "x-ms-date", value: HTTPDate.format(date)))
        if !headers.contains(where: { $0.name.equalsIgnoringASCIICase("x-ms-version") }) {
            headers.append((name: "x-ms-version", value: request.service == .table ? "2019-02-02" : "2021-12-02"))
        }
        if !request.body.isEmpty { headers.append((name: "Content-Length", value: String(request.body.count))) }
        if case .sharedKey(let credentials) = connection.credential {
            let head = RequestHead(
                method: request.method,
                path: AzureConnection.split(endpoint).path + request.path,
                query: query,
                headers: headers
            )
            do {
                headers.append(
                    (
                        name: "Authorization",
                        value: try SharedKey.authorization(
                            for: head,
                            service: request.service,
                            credentials: credentials
                        )
                    )
                )
            } catch {
                throw StorageError(.invalidInput, account: connection.accountName, "cannot sign the request: \(error)")
            }
        }
        return (url, headers)
    }

    /// The status and `x-ms-error-code` of an anonymous HEAD of `url`, as a browser or the app would
    /// send it: one try, unsigned, without the SAS token; nil when nothing answered.
    package func anonymousStatus(of url: String) async -> (status: Int, errorCode: String?)? {
        var http = HTTPClientRequest(url: url)
        http.method = .HEAD
        guard let response = try? await client.execute(http, timeout: .seconds(10)) else { return nil }
        return (Int(response.status.code), response.headers.first(name: "x-ms-error-code"))
    }

    /// One try: signed now, sent, its reply read whole; and whether it failed because the endpoint, on
    /// loopback, refused the connection.
    private func once(
        _ request: StorageRequest
    ) async -> (outcome: Result<StorageResponse, StorageError>, refusedOnLoopback: Bool) {
        sent.add(1, ordering: .relaxed)
        let url: String
        let headers: [(name: String, value: String)]
        do {
            (url, headers) = try prepared(request, date: EdmDateTime.now())
        } catch {
            return (.failure(error), false)
        }
        let endpoint = connection.endpoint(request.service)
        var http = HTTPClientRequest(url: url)
        http.method = HTTPMethod(rawValue: request.method)
        for (name, value) in headers where !name.equalsIgnoringASCIICase("Content-Length") {
            http.headers.add(name: name, value: value)
        }
        if !request.body.isEmpty { http.body = .bytes(ByteBuffer(bytes: request.body)) }
        do {
            let response = try await client.execute(http, timeout: TimeAmount(timeout))
            let reply = StorageResponse(
                status: Int(response.status.code),
                headers: response.headers.map { (name: $0.name, value: $0.value) },
                body: try await Self.collect(response)
            )
            return (.success(reply), false)
        } catch {
            // Whatever went wrong on the way (refused, reset, timed out) says nothing secret: the URL's
            // SAS token is not in it.
            let failure = StorageError(
                .unreachable,
                account: connection.accountName,
                "\(request.method) \(endpoint)\(request.path): \(Self.describe(error, endpoint: endpoint))"
            )
            return (.failure(failure), Self.errno(of: error) == ECONNREFUSED && AzureConnection.isLoopback(endpoint))
        }
    }

    /// The reply's body, its chunks copied once into an array of the size `Content-Length` gives.
    /// (`collect(upTo:)` grows a buffer by doubling and the array is a second copy: for a page of
    /// entities, 1.4 MB, that was two more copies and fresh memory, a page fault every 4 KiB.)
    private static func collect(_ response: HTTPClientResponse) async throws -> [UInt8] {
        let declared = response.headers.first(name: "Content-Length").flatMap { Int($0) }
        if let declared, declared > maximumReplyBytes { throw NIOTooManyBytesError(maxBytes: maximumReplyBytes) }
        var body: [UInt8] = []
        body.reserveCapacity(declared ?? 0)
        for try await chunk in response.body {
            guard body.count + chunk.readableBytes <= maximumReplyBytes else {
                throw NIOTooManyBytesError(maxBytes: maximumReplyBytes)
            }
            chunk.withUnsafeReadableBytes { body.append(contentsOf: $0) }
        }
        return body
    }

    /// A failed exchange in plain words where the system's errno says what happened (nothing
    /// listening, a reset); the client's own text otherwise.
    static func describe(_ error: any Error, endpoint: String) -> String {
        let address = String(AzureConnection.split(endpoint).host)
        if let code = errno(of: error) { return SocketFailure.connecting(to: address, errno: code) }
        if let error = error as? HTTPClientError, error == .connectTimeout {
            return "\(address) did not answer in time"
        }
        return "\(error)"
    }

    /// The system's errno of a failed connection, when the network library kept one.
    static func errno(of error: any Error) -> Int32? {
        if let error = error as? IOError { return error.errnoCode }
        if let error = error as? NIOConnectionError {
            return error.connectionErrors.lazy.compactMap({ $0.error as? IOError }).first?.errnoCode
        }
        return nil
    }
}

/// The one place a service's refusal becomes a ``StorageError``: the inverse of `serve`'s map (a
/// ``WireError`` from a ``StorageError``, ``StorageError/httpStatus`` and ``StorageError/azureCode``).
/// The reason comes from the status (``StorageError/Reason/init(httpStatus:)``), the code and the
/// message from the body.
///
/// Table errors come as OData JSON or Atom XML (``TableErrorBody/read(_:status:)``, which also finds
/// a failed batch operation's index); Blob errors as `<Error><Code>…</Code><Message>…</Message>`,
/// with the code in `x-ms-error-code` too. A body that is neither still gives the status's reason
/// and the header's code. The message is the service's: it holds no key, and the client's SAS token
/// is in the URL, which is not quoted.
extension StorageHTTPClient {
    /// The error a reply stands for; nil for a status that is an answer (below 300, and 304, which
    /// callers ask for).
    package static func storageError(
        status: Int,
        errorCodeHeader: String?,
        body: [UInt8],
        service: StorageService,
        account: String
    ) -> StorageError? {
        guard status >= 300, status != 304 else { return nil }
        if service == .table, let table = TableErrorBody.read(body, status: status) {
            return storageError(
                table,
                account: account,
                table.message.isEmpty ? "status \(status)" : table.message,
                operationIndex: table.operationIndex
            )
        }
        let blob = BlobErrorBody.read(body)
        let code = errorCodeHeader ?? blob.code
        var message = blob.message ?? ""
        if message.isEmpty { message = "status \(status)" + (code.map { " (\($0))" } ?? "") }
        return StorageError(reason(status: status), account: account, message, code: code)
    }

    /// A Table service error read from a reply (an error body, or a failed batch's part) as the
    /// ``StorageError`` it stands for, with `message` and the failing operation's index.
    package static func storageError(
        _ error: TableServiceError,
        account: String,
        _ message: String,
        operationIndex: Int?
    ) -> StorageError {
        var storageError = StorageError(reason(status: error.status), account: account, message, code: error.code)
        storageError.operationIndex = operationIndex
        return storageError
    }

    /// The reason an error status stands for: a status no reason has is a service's failure.
    static func reason(status: Int) -> StorageError.Reason {
        StorageError.Reason(httpStatus: status) ?? .unavailable
    }
}
