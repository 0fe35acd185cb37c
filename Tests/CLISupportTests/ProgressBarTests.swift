import Testing

@testable import CLISupport

@Suite("progress bar")
struct ProgressBarTests {
    @Test("a phase's rate counts from the end of the phase before, not from the start of the run")
    func ratePerPhase() throws {
        var state = ProgressBar.State(phaseStart: 0, lastUpdate: 0)
        // 20 s reading a table, then the photos, which take a second.
        let reading = ProgressBar.text(
            of: ProgressLine("reading", done: 200_000, unit: .count("entities")),
            at: 20,
            &state
        )
        #expect(reading == "reading 200,000 entities · 10,000 entities/s")
        let photos = ProgressBar.text(
            of: ProgressLine("photos", done: 8, total: 8, unit: .count("photos")),
            at: 21,
            &state
        )
        #expect(photos == "photos ████████████████████████ 100% · 8 of 8 photos · 8 photos/s")
    }

    @Test("within a phase, lines come at most ten times a second, but its last one always")
    func throttled() {
        var state = ProgressBar.State(phaseStart: 0, lastUpdate: 0)
        let line = { (done: Int64) in ProgressLine("events", done: done, total: 100, unit: .count("events")) }
        #expect(ProgressBar.text(of: line(10), at: 1, &state) != nil)
        #expect(ProgressBar.text(of: line(20), at: 1.05, &state) == nil)
        #expect(ProgressBar.text(of: line(100), at: 1.06, &state) != nil)
    }
}
