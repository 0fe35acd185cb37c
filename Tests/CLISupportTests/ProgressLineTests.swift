import Testing

@testable import CLISupport

@Suite("progress line")
struct ProgressLineTests {
    @Test("an unknown total shows a count and a rate with units, never a percentage")
    func unknownTotal() {
        let bytes = ProgressLine("export", done: 48_200_000, total: 0, unit: .bytes, entities: 12345).text(
            seconds: 15.548
        )
        #expect(bytes == "export 12,345 entities · 48.2 MB · 3.1 MB/s")
        let count = ProgressLine("export", done: 12345, unit: .count("entities")).text(seconds: 2)
        #expect(count == "export 12,345 entities · 6,172 entities/s")
        #expect(!count.contains("%") && !bytes.contains("%"))
    }

    @Test("a known total shows a bar, the share, both figures with units, and a rate")
    func knownTotal() {
        let bytes = ProgressLine("export", done: 120_300_000, total: 267_000_000, unit: .bytes, entities: 12345).text(
            seconds: 3
        )
        #expect(bytes == "export ██████████░░░░░░░░░░░░░░ 45% · 120.3 MB of 267.0 MB · 12,345 entities · 40.1 MB/s")
        let events = ProgressLine("events", done: 4500, total: 10000, unit: .count("events")).text(seconds: 1.5)
        #expect(events == "events ██████████░░░░░░░░░░░░░░ 45% · 4,500 of 10,000 events · 3,000 events/s")
    }

    @Test("done past the total stays at 100%")
    func overshoot() {
        let line = ProgressLine("validate", done: 12, total: 10, unit: .count("entities")).text(seconds: 1)
        #expect(
            line.hasPrefix(
                "validate " + String(repeating: "█", count: ProgressLine.barWidth) + " 100% · 12 of 10 entities"
            )
        )
    }

    @Test(
        "bytes in decimal units",
        arguments: [
            (0, "0 B"), (999, "999 B"), (1000, "1.0 kB"), (48_249_999, "48.2 MB"), (999_960, "1.0 MB"),
            (1_100_000_000, "1.1 GB"),
        ] as [(Int64, String)]
    )
    func bytes(count: Int64, text: String) {
        #expect(ProgressLine.bytes(count) == text)
    }

    @Test(
        "counts grouped by thousands",
        arguments: [(0, "0"), (999, "999"), (1000, "1,000"), (1_234_567, "1,234,567"), (-4500, "-4,500")]
            as [(Int64, String)]
    )
    func grouped(number: Int64, text: String) {
        #expect(ProgressLine.grouped(number) == text)
    }
}
