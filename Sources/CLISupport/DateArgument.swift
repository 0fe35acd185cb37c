import ArgumentParser
package import SpeakEasyData

/// A date on the command line: `yyyy-MM-dd` or a full `yyyy-MM-ddTHH:mm:ss[.fffffff][Z]`, always UTC.
package struct DateArgument: ExpressibleByArgument, Sendable {
    package let value: EdmDateTime
    /// True for the `yyyy-MM-dd` form, which a cutoff reads as the end of that day.
    package let isDayOnly: Bool

    package init?(argument: String) {
        if argument.utf8.count == 10, let value = try? EdmDateTime(parsing: argument + "T00:00:00Z") {
            self.value = value
            isDayOnly = true
        } else if let value = try? EdmDateTime(parsing: argument) {
            self.value = value
            isDayOnly = false
        } else {
            return nil
        }
    }

    /// The last tick of the day for `yyyy-MM-dd`, the instant itself otherwise.
    package var asCutoff: EdmDateTime {
        isDayOnly ? value.adding(ticks: EdmDateTime.ticksPerDay - 1) ?? value : value
    }
}

extension DateResolution: ExpressibleByArgument {}
extension SeedMode: ExpressibleByArgument {}
