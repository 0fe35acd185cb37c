#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the terminal on stderr can show.
package enum Terminal {
    /// Whether stderr is a terminal (a progress bar makes sense).
    package static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Colour only on a terminal, and never when `NO_COLOR` is set (no-color.org).
    package static var colourEnabled: Bool { stderrIsTerminal && getenv("NO_COLOR") == nil }

    /// The same for what goes to stdout (a report).
    package static var colourEnabledOnStdout: Bool { isatty(STDOUT_FILENO) == 1 && getenv("NO_COLOR") == nil }

    package static func writeError(_ text: String) {
        var line = text
        line.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if written <= 0 { if errno == EINTR { continue } else { return } }
                offset += written
            }
        }
    }
}
