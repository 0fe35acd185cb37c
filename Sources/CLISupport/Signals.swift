import SpeakEasyData

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How the tools meet signals, set once at start (``ToolMain``).
enum Signals {
    static func install() {
        // A reader that goes away (`export … | head`) is a write error, EPIPE, that the tool turns
        // into a quiet exit 74 (ToolExit), instead of a death by SIGPIPE (141) that skips clean-up.
        signal(SIGPIPE, SIG_IGN)
        // Every other signal that ends a process and can be caught removes the temporary files first.
        TemporaryFiles.removeOnInterrupt()
    }
}
