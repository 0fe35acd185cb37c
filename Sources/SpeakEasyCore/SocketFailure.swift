#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed socket call in plain words, from its errno: what the user can act on, in place of the
/// network library's own text (a C function's name, an unbalanced parenthesis, the errno's number).
package enum SocketFailure {
    /// Why connecting to `address` (`host` or `host:port`) failed.
    package static func connecting(to address: String, errno code: Int32) -> String {
        switch code {
        case ECONNREFUSED: "nothing is listening on \(address)"
        case ECONNRESET, EPIPE: "\(address) closed the connection"
        case ETIMEDOUT: "\(address) did not answer in time"
        case EHOSTUNREACH, ENETUNREACH: "\(address) cannot be reached from this machine"
        default: "cannot connect to \(address): \(words(code))"
        }
    }

    /// Why listening on `host`, port `port`, failed.
    package static func listening(on host: String, port: Int, errno code: Int32) -> String {
        switch code {
        case EADDRNOTAVAIL: "cannot listen on \(host): not an address of this machine"
        case EADDRINUSE: "cannot listen on \(host):\(port): the port is in use"
        case EACCES: "cannot listen on \(host):\(port): the port is reserved for root"
        default: "cannot listen on \(host):\(port): \(words(code))"
        }
    }

    /// The system's text for the errno, lower-cased to sit inside a sentence.
    private static func words(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}
