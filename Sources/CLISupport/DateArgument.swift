// Public: DataFormat, a public type, conforms to ExpressibleByArgument below.
public import ArgumentParser
package import SpeakEasyData

/// A date on the command line: `yyyy-MM-dd` or a full `yyyy-MM-ddTHH:mm:ss[.fffffff][Z]`, always UTC.
package struct DateArgument: ExpressibleByArgument, Sendable {
    /// The forms the parser takes, as every help text and error states them (the `Z` may be left out:
    /// every date is UTC).
    package static let forms = "yyyy-MM-dd or yyyy-MM-ddTHH:mm:ss[.fffffff][Z]"

    package let value: EdmDateTime
    /// True for the `yyyy-MM-dd` form, which a cutoff reads as the end of that day.
    package let isDayOnly: Bool

    package init?(argument: String) {
        guard let parsed = try? Self(parsing: argument) else { return nil }
        self = parsed
    }

    /// Parses an option's value; the error says what is wrong with it (for `@Option(transform:)`).
    package init(parsing argument: String) throws {
        if argument.utf8.count == 10 {
            do {
                value = try EdmDateTime(parsing: argument + "T00:00:00Z")
                isDayOnly = true
                return
            } catch {
                throw ValidationError("'\(argument)' is not a date (\(error.reason)); expected \(Self.forms)")
            }
        }
        do {
            value = try EdmDateTime(parsing: argument)
            isDayOnly = false
        } catch {
            throw ValidationError("'\(argument)' is not a date (\(error.reason)); expected \(Self.forms)")
        }
    }

    /// `--cutoff` before `--from`, in the one wording the tools and the generator share.
    package static func checkWindow(from: DateArgument?, cutoff: DateArgument?) throws {
        if let from, let cutoff, cutoff.asCutoff < from.value {
            throw ValidationError("--cutoff \(cutoff.asCutoff) is before --from \(from.value)")
        }
    }

    /// The last tick of the day for `yyyy-MM-dd`, the instant itself otherwise.
    package var asCutoff: EdmDateTime {
        isDayOnly ? value.adding(ticks: EdmDateTime.ticksPerDay - 1) ?? value : value
    }
}

extension DateResolution: ExpressibleByArgument {}
extension SeedMode: ExpressibleByArgument {}
extension DataFormat: ExpressibleByArgument {}
extension EventDateFormat: ExpressibleByArgument {}
extension EventDateCheck: ExpressibleByArgument {}
