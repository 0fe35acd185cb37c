import Foundation
import SpeakEasyData

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Paths and scratch space shared by the unit tests.
enum TestPaths {
    /// The package root, found from this file's location (`Tests/SpeakEasyDataTests/Support/`).
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The sample data shipped with the package.
    static var samples: String { packageRoot + "/samples" }

    /// Real payloads recorded from Azure, kept next to the repository (`/work/shared/reference/fixtures`).
    static var referenceFixtures: String {
        URL(fileURLWithPath: packageRoot).deletingLastPathComponent().appendingPathComponent("shared/reference/fixtures").path
    }
}

/// A fresh, empty directory for one test, removed when the test's body returns.
func withTemporaryDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
    let path = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try await body(path)
}

/// Synchronous variant of ``withTemporaryDirectory(_:)``.
func withTemporaryDirectory<T>(_ body: (String) throws -> T) throws -> T {
    let path = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try body(path)
}

private func makeTemporaryDirectory() throws -> String {
    var template = Array((NSTemporaryDirectory() + "/speakeasy-tests-XXXXXX").utf8CString)
    guard let pointer = mkdtemp(&template) else {
        throw CocoaError(.fileWriteUnknown)
    }
    return String(cString: pointer)
}

/// Writes bytes to a file, replacing it.
func writeFile(_ path: String, _ bytes: [UInt8]) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
}

func writeFile(_ path: String, _ text: String) throws {
    try writeFile(path, Array(text.utf8))
}

func readFile(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path)))
}

extension EdmDateTime {
    /// A date from a literal the tests know to be valid.
    static func at(_ text: String) -> EdmDateTime {
        do { return try EdmDateTime(parsing: text) } catch { fatalError("bad test date \(text): \(error)") }
    }
}

extension EdmGuid {
    static func literal(_ text: String) -> EdmGuid {
        guard let guid = EdmGuid(text) else { fatalError("bad test GUID \(text)") }
        return guid
    }
}

/// One property of every Edm type, with the extremes that most easily get lost on the way.
enum SampleProperties {
    static let everyType: [Property] = [
        Property("Text", .string("Ada \"the\" Countess\\of\nLovelace 😀")),
        Property("Empty", .string("")),
        Property("Int32Min", .int32(.min)),
        Property("Int32Max", .int32(.max)),
        Property("Int64Min", .int64(.min)),
        Property("Int64Max", .int64(.max)),
        Property("Int64Small", .int64(1)),
        Property("DoubleNaN", .double(.nan)),
        Property("DoubleInfinity", .double(.infinity)),
        Property("DoubleNegativeInfinity", .double(-.infinity)),
        Property("DoubleNegativeZero", .double(-0.0)),
        Property("DoubleMin", .double(.leastNonzeroMagnitude)),  // 4.94065645841247E-324
        Property("DoubleMax", .double(1.7976931348623157E+308)),
        Property("DoubleTen", .double(10.0)),
        Property("DoubleFraction", .double(0.1)),
        Property("True", .boolean(true)),
        Property("False", .boolean(false)),
        Property("DateTick", .dateTime(.at("2012-11-10T03:04:05.0000001Z"))),
        Property("DateMin", .dateTime(.min)),
        Property("DateMax", .dateTime(.max)),
        Property("Guid", .guid(.literal("c9da6455-213d-42c9-9a79-3e9149a57833"))),
        Property("Binary", .binary([0, 1, 2, 0x7F, 0x80, 0xFE, 0xFF])),
        Property("BinaryEmpty", .binary([])),
    ]
}
