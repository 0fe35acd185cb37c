import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The package's built executables (`seed`, `validate`, …), found beside the test binary, for every
/// test target that runs the tools as a user does.
package enum BuiltExecutable {
    package struct LocateError: Error, CustomStringConvertible {
        package var description: String
    }

    /// A built executable of this package: `$<NAME>_EXECUTABLE`, else next to the test binary.
    package static func locate(_ name: String) -> Result<String, LocateError> {
        let variable = name.uppercased() + "_EXECUTABLE"
        if let given = ProcessInfo.processInfo.environment[variable], !given.isEmpty {
            return isExecutableFile(given)
                ? .success(given) : .failure(LocateError(description: "\(variable)=\(given) is not an executable file"))
        }
        var starts: [String] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { starts.append(exe) }
        if let first = CommandLine.arguments.first, !first.isEmpty {
            starts.append(first.hasPrefix("/") ? first : FileManager.default.currentDirectoryPath + "/" + first)
        }
        var searched: [String] = []
        for start in starts where !start.isEmpty {
            // The test binary sits in the products directory (on macOS inside an .xctest bundle in it):
            // walk up a few levels looking for a sibling executable.
            var directory = URL(fileURLWithPath: start).resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0..<5 {
                let candidate = directory.appendingPathComponent(name).path
                searched.append(candidate)
                if isExecutableFile(candidate) { return .success(candidate) }
                if directory.path == "/" { break }
                directory.deleteLastPathComponent()
            }
        }
        return .failure(
            LocateError(
                description:
                    "the `\(name)` executable was not found next to the test binary (looked at \(searched.joined(separator: ", "))). "
                    + "Build it first: `swift build --build-tests` (or set \(variable))."
            )
        )
    }

    static func isExecutableFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
            && access(path, X_OK) == 0
    }
}
