/// Which `EventDate`s count as readable: the heart of the app's date bug.
///
/// The app parses `EventDate` with exactly `yyyy-MM-dd'T'HH:mm:ss.SSSSSSS'Z'`. Azure stores a DateTime
/// as 100-ns ticks and serves it with trailing fractional zeros trimmed (`.2000000` comes back as
/// `.2`, `.0000000` with no fraction at all), whatever the client wrote. So a date reaches the app
/// with all seven digits only when its last tick digit is not 0.
package enum EventDateFormat: String, Sendable, CaseIterable, Codable {
    /// What the app can read as Azure serves it: seven digits and `Z` in text, and a last tick digit
    /// that is not 0, so the service does not trim it.
    case app
    /// What the service accepts: 0–7 fractional digits and `Z`; any tick.
    case azure
}

extension EdmDateTime {
    /// Whether Azure serves this date with all seven fractional digits (its last tick digit is not 0).
    package var survivesAzureTrimming: Bool { ticks % 10 != 0 }
}
