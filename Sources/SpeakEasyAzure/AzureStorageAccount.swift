import SpeakEasyCore
import SpeakEasyModel
import SpeakEasyProtocol
package import SpeakEasyStorage

/// A storage account reached over Azure Storage's REST protocol: Azure itself, Azurite, or `serve`.
///
/// Tables speak JSON with minimal metadata (every type survives); a write is cut into entity-group
/// transactions (``TransactionGroups``), sent `parallel` at a time; queries follow continuation to
/// the end one page per call. Blobs go up in one Put Blob, or in blocks above `singlePutLimit`.
/// Every request is signed, timed and retried by ``StorageHTTPClient``.
///
/// What Azure charges a request for is asked in bulk: whether entities exist and whether they
/// changed is one query of a partition's pages, hashed here (``entityDigests(table:partition:from:limit:)``).
package final class AzureStorageAccount: CountsRequests {
    package let http: StorageHTTPClient
    /// Requests in flight at once, across every call on this account.
    package let parallel: Int
    /// The largest blob sent in one Put Blob; larger ones go up in blocks of `blockSize`.
    package let singlePutLimit: Int
    package let blockSize: Int

    package static let defaultParallel = 8

    /// Tables this object has made or found, and containers it made with the blobs it has put in them
    /// since: a second create of a table is then no request, and a blob put into such a container needs
    /// no look first. Any other change to a blob of the container forgets it.
    let known = Locked(Known())

    struct Known {
        var tables: Set<String> = []
        /// Container → blob name → MD5 and content type of what was put.
        var newContainers: [String: [String: String]] = [:]
    }

    package init(
        _ connection: AzureConnection,
        parallel: Int = defaultParallel,
        retry: RetryPolicy = RetryPolicy(),
        timeout: Duration = .seconds(60),
        singlePutLimit: Int = 16 << 20,
        blockSize: Int = 4 << 20
    ) {
        http = StorageHTTPClient(connection: connection, retry: retry, timeout: timeout, concurrency: max(1, parallel))
        self.parallel = max(1, parallel)
        self.singlePutLimit = singlePutLimit
        self.blockSize = max(1, blockSize)
    }

    package var connection: AzureConnection { http.connection }
    package var displayName: String { connection.displayName }
    package var accountName: String { connection.accountName }
    package var address: String { connection.tableEndpoint }
    package var requestCounts: RequestCounts { http.counts }

    package func blobURL(container: String, blob: String) -> String {
        Self.blobURL(connection, container: container, blob: blob)
    }

    package static func blobURL(_ connection: AzureConnection, container: String, blob: String) -> String {
        connection.blobEndpoint + "/" + container + "/" + BlobURL.escape(blob)
    }

    /// A blob URL naming another account on this account's own blob endpoint (an emulator's path
    /// style, where one server may answer for several names, as `serve` does for the local account's)
    /// is answered for when asked anonymously. Other hosts are never asked: the URL comes from the data.
    package func opensOnThisEndpoint(_ url: String) async -> Bool {
        let endpoint = AzureConnection.split(connection.blobEndpoint)
        let given = AzureConnection.split(url)
        guard !endpoint.host.isEmpty, given.host.lowercased() == endpoint.host.lowercased(),
            url.prefix { $0 != ":" }.lowercased() == connection.blobEndpoint.prefix { $0 != ":" }.lowercased()
        else { return false }
        // It opens, or the server answers for the name but has no such blob: the photo check then
        // says the blob is missing, which is the fault.
        guard let answer = await http.anonymousStatus(of: url) else { return false }
        return answer.status == 200 || (answer.status == 404 && answer.errorCode == "BlobNotFound")
    }

    /// Committed writes are durable when Azure acknowledges them.
    package func flush() async throws {}

    // MARK: Requests

    /// Sends `request` and returns a 2xx reply; any other is thrown as the error it stands for.
    func send(_ request: StorageRequest) async throws(StorageError) -> StorageResponse {
        let response = try await http.send(request)
        guard (200..<300).contains(response.status) else { throw error(response, request.service) }
        return response
    }

    /// The error a reply that is not a success stands for.
    func error(_ response: StorageResponse, _ service: StorageService) -> StorageError {
        StorageHTTPClient.storageError(
            status: response.status,
            errorCodeHeader: response.header("x-ms-error-code"),
            body: response.body,
            service: service,
            account: accountName
        )
            ?? StorageError(
                .unavailable,
                account: accountName,
                "the service answered with the unexpected status \(response.status)"
            )
    }

    /// A reply body that is not what the request's answer should be.
    func unreadable(_ what: String, _ why: Any) -> StorageError {
        StorageError(.unavailable, account: accountName, "the \(what) the service sent cannot be read: \(why)")
    }
}
