import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fresh, empty directory for one test, removed when the test's body returns.
package func withTemporaryDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
    let path = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try await body(path)
}

/// Synchronous variant of ``withTemporaryDirectory(_:)``.
package func withTemporaryDirectorySync<T>(_ body: (String) throws -> T) throws -> T {
    let path = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try body(path)
}

/// A fresh, empty directory that the caller removes (for set-ups that cannot wrap the test's body).
package func makeTemporaryDirectory() throws -> String {
    var template = Array((NSTemporaryDirectory() + "/speakeasy-tests-XXXXXX").utf8CString)
    guard let pointer = mkdtemp(&template) else {
        throw CocoaError(.fileWriteUnknown)
    }
    return String(cString: pointer)
}
