import CLISupport
import SpeakEasyData

/// The `seed` command that makes a generated run's data again, on any machine and any day: every
/// option that decides the data, spelt out. `--from` defaults to today, so a command without it
/// gives other dates tomorrow.
enum RepeatCommand {
    static func words(_ options: GeneratorOptions, samples: String?) -> [String] {
        var words = [
            "seed", "--seed", String(options.seed), "--events", String(options.eventCount), "--speakers",
            String(options.speakerCount), "--from", day(options.from) ?? instant(options.from), "--cutoff",
            cutoffDay(options.cutoff) ?? instant(options.cutoff),
        ]
        if options.resolution != .minute { words += ["--resolution", options.resolution.rawValue] }
        if options.dateFormat != .app { words += ["--date-format", options.dateFormat.rawValue] }
        if let samples { words += ["--samples", samples] }
        return words
    }

    static func line(_ options: GeneratorOptions, samples: String?) -> String {
        words(options, samples: samples).map(ShellWord.quoted).joined(separator: " ")
    }

    /// `yyyy-MM-dd` for an instant at the start of a day, as `--from` reads it.
    private static func day(_ instant: EdmDateTime) -> String? {
        instant == instant.startOfDay ? String(instant.description.prefix(10)) : nil
    }

    /// The whole instant, without a fraction when it has none.
    private static func instant(_ instant: EdmDateTime) -> String {
        let text = instant.description
        return text.hasSuffix(".0000000Z") ? String(text.dropLast(9)) + "Z" : text
    }

    /// `yyyy-MM-dd` for the last tick of a day, as `--cutoff` reads it.
    private static func cutoffDay(_ instant: EdmDateTime) -> String? {
        instant.adding(ticks: 1).map { $0 == $0.startOfDay } == true ? String(instant.description.prefix(10)) : nil
    }
}
