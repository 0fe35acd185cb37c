import SpeakEasyCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A one-line progress display on stderr, redrawn at most ten times a second; silent when disabled
/// (off a terminal, `--quiet`, or where it would mix into data: ``Terminal/progressAllowed(dataOnStdout:)``).
package final class ProgressBar: Sendable {
    private struct State {
        var lastDraw: Double = 0
        var label = ""
        var drawn = false
    }

    private let enabled: Bool
    private let state = Locked(State())
    private let start = ProgressBar.seconds()

    package init(enabled: Bool) { self.enabled = enabled }

    package func update(_ line: ProgressLine) {
        guard enabled else { return }
        let now = Self.seconds()
        state.withLock { state in
            let finished = (line.total ?? 0) > 0 && line.done >= line.total!
            guard line.label != state.label || finished || now - state.lastDraw >= 0.1 else { return }
            state.lastDraw = now
            state.label = line.label
            state.drawn = true
            Terminal.writeError("\r\u{1B}[2K" + line.text(seconds: now - start))
        }
    }

    /// Clears the line so the summary starts on a clean line.
    package func finish() {
        guard enabled else { return }
        state.withLock { state in
            if state.drawn { Terminal.writeError("\r\u{1B}[2K") }
            state.drawn = false
        }
    }

    private static func seconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
