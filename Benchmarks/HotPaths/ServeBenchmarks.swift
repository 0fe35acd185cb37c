import Benchmark
import Foundation
import SpeakEasyData
import SpeakEasyProtocol
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One page of a query through `serve`: 1,000 seeded events read from its SQLite store and written as
/// Azure's JSON, over a real loopback connection. The client is a blocking socket with its request made
/// once, so what the count measures is the server's work (and NIO's under it). The server's tasks and
/// threads hand the work on in an order that varies a little, and so does the count (by about 2%, and
/// a rare page by more): many pages, one server, so that p90 is a typical page.
func serveBenchmarks() {
    Benchmark(
        "serve-query-page",
        configuration: .init(maxIterations: 100),
        closure: { benchmark in
            guard let (port, request) = QueryPage.served.withLock({ $0.map { ($0.server.tablePort, $0.request) } })
            else { throw QueryPage.Failure(description: "the server did not start") }
            benchmark.startMeasurement()
            let reply = try await QueryPage.fetch(request, port: port)
            benchmark.stopMeasurement()
            try QueryPage.check(reply)
        },
        setup: {
            let server = try await LocalStorageServer.start()
            do {
                _ = try await Store(server.connectionString).seed(SeedOptions(seed: 1, eventCount: QueryPage.size))
                let request = try QueryPage.request(server: server)
                QueryPage.served.withLock { $0 = (server, request) }
            } catch {
                try? await server.stop()
                throw error
            }
        },
        teardown: {
            let server = QueryPage.served.withLock { served in
                defer { served = nil }
                return served?.server
            }
            try await server?.stop()
        }
    )
}

/// The request and its checks.
enum QueryPage {
    static let size = 1_000
    /// The server the benchmark's setup started, with its request; nil outside the benchmark.
    static let served = Mutex<(server: LocalStorageServer, request: [UInt8])?>(nil)

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// `GET /devstoreaccount1/events()?$top=1000` with a read SAS, closing the connection after the reply.
    static func request(server: LocalStorageServer) throws -> [UInt8] {
        let credentials = try StorageCredentials(accountName: server.accountName, key: server.accountKey)
        let sas = try SharedAccessSignature.table(
            DataContract.table,
            permissions: "r",
            expiry: EdmDateTime(year: 2100, month: 1, day: 1)!
        )
        .signed(with: credentials)
        let target = "/\(server.accountName)/\(DataContract.table)()?$top=\(size)&\(sas.token)"
        let head =
            "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(server.tablePort)\r\nx-ms-version: 2019-02-02\r\n"
            + "Accept: application/json;odata=minimalmetadata\r\nConnection: close\r\n\r\n"
        return Array(head.utf8)
    }

    /// Sends `request` on a new connection and reads the reply until the server closes it, on a thread
    /// of its own: the benchmark's harness blocks a thread of Swift's pool while it waits, and the
    /// server needs the other.
    static func fetch(_ request: [UInt8], port: Int) async throws -> ArraySlice<UInt8> {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try blockingFetch(request, port: port) }) }
        }
    }

    private static func blockingFetch(_ request: [UInt8], port: Int) throws -> ArraySlice<UInt8> {
        var buffer = [UInt8](repeating: 0, count: 4 << 20)
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        defer { close(socket) }
        // A receive buffer that holds the whole reply, so that the server writes it without waiting for
        // this thread to read: waits, and the writes resumed after them, vary in number from run to
        // run, and so would the count.
        var receiveBuffer = Int32(8 << 20)
        setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &receiveBuffer, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw Failure(description: "connect: errno \(errno)") }
        let sent = request.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
        guard sent == request.count else { throw Failure(description: "send: \(sent) of \(request.count) bytes") }
        var received = 0
        while true {
            guard received < buffer.count else { throw Failure(description: "the reply passed \(buffer.count) bytes") }
            let count = buffer.withUnsafeMutableBytes {
                recv(socket, $0.baseAddress! + received, $0.count - received, 0)
            }
            guard count >= 0 else { throw Failure(description: "recv: errno \(errno)") }
            if count == 0 { return buffer[..<received] }
            received += count
        }
    }

    /// The reply is a 200 whose body (chunked, or whole) holds a whole page: every event's RowKey once.
    static func check(_ reply: ArraySlice<UInt8>) throws {
        let lineEnd = Array("\r\n".utf8)
        guard reply.starts(with: Array("HTTP/1.1 200".utf8)), let headEnd = reply.firstRange(of: lineEnd + lineEnd)
        else {
            throw Failure(description: "the query answered \(String(decoding: reply.prefix(200), as: UTF8.self))")
        }
        let head = String(decoding: reply[..<headEnd.lowerBound], as: UTF8.self).lowercased()
        var body = Array(reply[headEnd.upperBound...])
        if head.contains("transfer-encoding: chunked") {
            var chunks = body[...]
            body = []
            while let sizeEnd = chunks.firstRange(of: lineEnd),
                let size = Int(String(decoding: chunks[..<sizeEnd.lowerBound], as: UTF8.self), radix: 16), size > 0
            {
                body += chunks[sizeEnd.upperBound...].prefix(size)
                chunks = chunks[(sizeEnd.upperBound + size)...].dropFirst(lineEnd.count)
            }
        }
        let rows = String(decoding: body, as: UTF8.self).components(separatedBy: "\"RowKey\":").count - 1
        guard rows == size else { throw Failure(description: "the page held \(rows) entities, not \(size)") }
    }
}
