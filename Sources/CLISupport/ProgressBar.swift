import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A one-line progress bar on stderr, redrawn at most ten times a second; silent off a terminal.
package final class ProgressBar: Sendable {
    private struct State {
        var lastDraw: Double = 0
        var label = ""
        var drawn = false
    }

    private let enabled: Bool
    private let state = Mutex(State())
    private let start = ProgressBar.seconds()

    package init(enabled: Bool = Terminal.stderrIsTerminal) { self.enabled = enabled }

    package func update(_ label: String, done: Int, total: Int) {
        guard enabled else { return }
        let now = Self.seconds()
        state.withLock { state in
            guard label != state.label || done >= total || now - state.lastDraw >= 0.1 else { return }
            state.lastDraw = now
            state.label = label
            state.drawn = true
            let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 1
            let width = 30
            let filled = Int(fraction * Double(width))
            let rate = Double(done) / max(now - start, 0.001)
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            let percent = Int(fraction * 100)
            Terminal.writeError("\r\u{1B}[2K\(label) \(bar) \(percent)% \(done)/\(total) \(Self.rate(rate))")
        }
    }

    /// Clears the bar so the summary starts on a clean line.
    package func finish() {
        guard enabled else { return }
        state.withLock { state in
            if state.drawn { Terminal.writeError("\r\u{1B}[2K") }
            state.drawn = false
        }
    }

    private static func rate(_ perSecond: Double) -> String {
        perSecond >= 1_000_000 ? "\(Int(perSecond / 100_000) / 10).\(Int(perSecond / 100_000) % 10)M/s"
            : perSecond >= 1000 ? "\(Int(perSecond / 1000))k/s" : "\(Int(perSecond))/s"
    }

    private static func seconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
