import SpeakEasyData

/// The short text summary `seed` prints: counts, date range, events per speaker, a monthly histogram.
enum SummaryPrinter {
    static func summary(
        of report: SeedReport,
        store: String,
        samples: String? = nil,
        requests: RequestCounts? = nil
    ) -> String {
        let o = report.options
        let s = report.statistics
        var out =
            report.dryRun
            ? "Dry run: nothing was written to \(store). It would write:\n"
            : (report.resumed ? "Finished an interrupted run into \(store).\n" : "Seeded \(store).\n")
        out += "  seed          \(o.seed) (generator v\(SeedGenerator.version))\n"
        out += "  repeat with   \(RepeatCommand.line(o, samples: samples))\n"
        // A merge into a table that held other entities: the command makes this run's, not the table's.
        if report.partitionCounts.values.reduce(0, +) > o.eventCount + o.speakerCount {
            out += "                (this run's entities, into a new store; the table holds others too)\n"
        }
        out += "  photos        \(report.photos) in container '\(DataContract.photoContainer)' (public read)"
        out += report.dryRun ? "\n" : ", \(report.photosWritten) uploaded\n"
        let partitions = report.partitionCounts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(
            separator: " · "
        )
        out += "  table         \(report.table): \(partitions)\n"
        if !report.dryRun {
            out +=
                "  this run      \(report.outcome.inserted) inserted, \(report.outcome.updated) updated, \(report.outcome.unchanged) unchanged\n"
        }
        out += requestsLine(requests)
        if let earliest = s.earliest, let latest = s.latest {
            out += "  event dates   \(earliest) … \(latest)\n"
        }
        out += "  window        \(o.from) … \(o.cutoff), \(o.resolution.rawValue) resolution\n"
        out += "  content hash  \(report.contentHash)\n"
        guard s.events > 0 else { return out }

        out += "\nEvents per speaker\n"
        let perSpeaker = report.speakerNames.map { (name: $0.value, count: s.eventsPerSpeaker[$0.key] ?? 0) }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0.name < $1.name }
        let shown = perSpeaker.prefix(10)
        let nameWidth = shown.map(\.name.count).max() ?? 0
        for row in shown { out += "  " + pad(row.name, nameWidth) + "  " + String(row.count) + "\n" }
        if perSpeaker.count > shown.count {
            let rest = perSpeaker.dropFirst(shown.count).map(\.count)
            out += "  … and \(rest.count) more (\(rest.min() ?? 0)–\(rest.max() ?? 0) each)\n"
        }

        out += "\nEvents per month\n"
        let months = s.eventsPerMonth.sorted { $0.key < $1.key }
        let largest = months.map(\.value).max() ?? 1
        let countWidth = String(largest).count
        for (month, count) in months {
            let bar = String(repeating: "█", count: max(1, Int((Double(count) / Double(largest) * 40).rounded())))
            out += "  \(month)  " + pad(String(count), countWidth, right: true) + " " + bar + "\n"
        }
        return out
    }

    static func summary(of report: FileImporter.Report, store: String, requests: RequestCounts? = nil) -> String {
        var out =
            report.dryRun ? "Dry run: nothing was written to \(store). It would load:\n" : "Loaded into \(store).\n"
        let read = report.read.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: " · ")
        out += "  read          \(read.isEmpty ? "no entities" : read)\n"
        let partitions = report.partitionCounts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(
            separator: " · "
        )
        out += "  table         \(report.table): \(partitions.isEmpty ? "empty" : partitions)\n"
        if !report.dryRun {
            out +=
                "  this run      \(report.outcome.inserted) inserted, \(report.outcome.updated) updated, \(report.outcome.unchanged) unchanged\n"
        }
        out += requestsLine(requests)
        out += "  content hash  \(report.contentHash)\n"
        return out
    }

    /// What `--photos` did (`written` is nil for a dry run), and what it could not match: each list
    /// cut at ten.
    static func photos(_ plan: PhotoPlan, written: Int?, rewritten: Int = 0) -> String {
        let container = "container '\(DataContract.photoContainer)' (public read)"
        var out = "  photos        \(plan.uploads.count) from \(plan.directory) in \(container)"
        if let written { out += ", \(written) uploaded" }
        out += "\n"
        if rewritten > 0 {
            out += "  ImageUrl      \(rewritten) rewritten to name this account's photo (the file named another)\n"
        }
        out += list(plan.speakersWithoutPhoto.map { "\($0.speaker.description): \($0.reason)" }, "no photo", "speaker")
        out += list(plan.filesWithoutSpeaker, "no speaker", "file")
        return out
    }

    /// `  no photo      2 speakers` and the first ten, one a line.
    private static func list(_ items: [String], _ label: String, _ noun: String) -> String {
        guard !items.isEmpty else { return "" }
        var out = "  " + pad(label, 12) + "  \(items.count) \(noun)\(items.count == 1 ? "" : "s")\n"
        for item in items.prefix(10) { out += "    \(item)\n" }
        if items.count > 10 { out += "    … and \(items.count - 10) more\n" }
        return out
    }

    /// `  requests      203, and 4 tries again` for a remote account; nothing for a local one.
    private static func requestsLine(_ counts: RequestCounts?) -> String {
        guard let counts else { return "" }
        let again = counts.retries == 0 ? "" : ", and \(counts.retries) \(counts.retries == 1 ? "try" : "tries") again"
        return "  requests      \(counts.requests)\(again)\n"
    }

    private static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? padding + text : text + padding
    }
}
