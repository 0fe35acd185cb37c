#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the terminal on stderr can show.
package enum Terminal {
    /// Whether stderr is a terminal (a progress bar makes sense).
    package static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Whether a progress display on stderr is safe: stderr is a terminal, and not the very terminal
    /// the data is going to (`export` to stdout on a terminal), where it would garble the data.
    package static func progressAllowed(dataOnStdout: Bool) -> Bool {
        guard stderrIsTerminal else { return false }
        return !(dataOnStdout && isatty(STDOUT_FILENO) == 1 && sameFile(STDOUT_FILENO, STDERR_FILENO))
    }

    /// Whether two descriptors are open on the same file (the same terminal device).
    static func sameFile(_ a: Int32, _ b: Int32) -> Bool {
        var first = stat()
        var second = stat()
        guard fstat(a, &first) == 0, fstat(b, &second) == 0 else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino && first.st_rdev == second.st_rdev
    }

    /// Colour only on a terminal, and never when `NO_COLOR` is set (no-color.org).
    package static var colourEnabled: Bool { stderrIsTerminal && getenv("NO_COLOR") == nil }

    /// The same for what goes to stdout (a report).
    package static var colourEnabledOnStdout: Bool { isatty(STDOUT_FILENO) == 1 && getenv("NO_COLOR") == nil }

    package static func writeError(_ text: String) { write(text, to: STDERR_FILENO) }

    /// Unbuffered, so that a script reading the output sees each line as it is written.
    package static func writeOutput(_ text: String) { write(text, to: STDOUT_FILENO) }

    private static func write(_ text: String, to descriptor: Int32) {
        var line = text
        line.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written <= 0 { if errno == EINTR { continue } else { return } }
                offset += written
            }
        }
    }
}
