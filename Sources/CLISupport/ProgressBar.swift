import SpeakEasyCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-line progress display on stderr, redrawn at most ten times a second; silent when disabled
/// (off a terminal, `--quiet`, or where it would mix into data: ``Terminal/progressAllowed(dataOnStdout:)``).
/// A new label is a new phase, counted from 0: its rate is reckoned from the end of the phase before.
package final class ProgressBar: Sendable {
    struct State {
        var lastDraw: Double = 0
        var label = ""
        /// When the phase began: the previous update (the end of the last phase), or the bar's start.
        var phaseStart: Double
        var lastUpdate: Double
        var drawn = false
    }

    private let enabled: Bool
    private let state: Locked<State>

    package init(enabled: Bool) {
        self.enabled = enabled
        let now = Self.seconds()
        state = Locked(State(phaseStart: now, lastUpdate: now))
    }

    package func update(_ line: ProgressLine) {
        guard enabled else { return }
        let now = Self.seconds()
        state.withLock { state in
            guard let text = Self.text(of: line, at: now, &state) else { return }
            Terminal.writeError("\r\u{1B}[2K" + text)
        }
    }

    /// What to draw for `line` at `now` seconds, or nil to skip it (drawn less than 0.1 s ago, in the
    /// same phase, and not its end).
    static func text(of line: ProgressLine, at now: Double, _ state: inout State) -> String? {
        let finished = (line.total ?? 0) > 0 && line.done >= line.total!
        let newPhase = line.label != state.label
        if newPhase, state.drawn { state.phaseStart = state.lastUpdate }
        state.lastUpdate = now
        guard newPhase || finished || now - state.lastDraw >= 0.1 else { return nil }
        state.lastDraw = now
        state.label = line.label
        state.drawn = true
        return line.text(seconds: now - state.phaseStart)
    }

    /// Clears the line so the summary starts on a clean line.
    package func finish() {
        guard enabled else { return }
        state.withLock { state in
            if state.drawn { Terminal.writeError("\r\u{1B}[2K") }
            state.drawn = false
        }
    }

    static func seconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
