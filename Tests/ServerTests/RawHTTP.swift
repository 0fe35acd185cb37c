import Foundation
import SpeakEasyData

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes written to the server as they are, for requests no HTTP client would send: a body longer
/// than its `Content-Length`, a path with `..` (clients remove dot segments), a broken request line.
enum RawHTTP {
    struct Failure: Error, CustomStringConvertible { var description: String }

    /// Connects to the loopback `port`, writes `bytes`, and returns all the server sends until it closes
    /// the connection or is silent for `quietSeconds`.
    static func exchange(port: Int, _ bytes: [UInt8], quietSeconds: Int = 10) async throws -> [UInt8] {
        let connection = try await Connection.open(port: port, quietSeconds: quietSeconds)
        try await connection.send(bytes)
        return await connection.receiveAll()
    }

    /// A connection to a loopback port, for a test that must know its request was sent before it goes on.
    final class Connection: Sendable {
        private let fd: Int32

        private init(fd: Int32) { self.fd = fd }

        deinit { close(fd) }

        static func open(port: Int, quietSeconds: Int = 10) async throws -> Connection {
            try await offPool { () throws(Failure) -> Connection in
                #if canImport(Glibc)
                let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                #else
                let fd = socket(AF_INET, SOCK_STREAM, 0)
                #endif
                guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
                let connection = Connection(fd: fd)
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_port = in_port_t(UInt16(port).bigEndian)
                address.sin_addr.s_addr = inet_addr("127.0.0.1")
                let connected = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
                guard connected == 0 else { throw Failure(description: "connect: \(String(cString: strerror(errno)))") }
                var timeout = timeval(tv_sec: quietSeconds, tv_usec: 0)
                setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                return connection
            }
        }

        /// Writes `bytes`, or as many as the server takes before it closes.
        func send(_ bytes: [UInt8]) async throws {
            await offPool {
                var sent = 0
                while sent < bytes.count {
                    let written = bytes[sent...].withUnsafeBytes {
                        Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                    }
                    guard written > 0 else { break }  // the server closed early: read what it said
                    sent += written
                }
            }
        }

        /// What one read returns: a short reply whole, as the server writes each reply at once.
        func receiveSome() async -> [UInt8] {
            await offPool {
                var buffer = [UInt8](repeating: 0, count: 65_536)
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                return Array(buffer[..<max(count, 0)])
            }
        }

        /// Closes the connection both ways now, before the object goes.
        func shutdown() { _ = Glibc.shutdown(fd, Int32(SHUT_RDWR)) }

        /// All the server sends until it closes the connection or is silent for the quiet time.
        func receiveAll() async -> [UInt8] {
            await offPool {
                var reply: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while true {
                    let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                    guard count > 0 else { break }
                    reply += buffer[..<count]
                }
                return reply
            }
        }
    }

    /// The status codes of the responses in `reply`, in order.
    static func statuses(_ reply: [UInt8]) -> [Int] {
        String(decoding: reply, as: UTF8.self).components(separatedBy: "HTTP/1.1 ").dropFirst().compactMap {
            Int($0.prefix(3))
        }
    }
}
