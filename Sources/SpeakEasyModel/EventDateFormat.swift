/// Which `EventDate`s `seed` writes: the heart of the app's date bug.
///
/// The app parses `EventDate` with `NSDateFormatter` (ICU), pattern `yyyy-MM-dd'T'HH:mm:ss.SSSSSSS'Z'`.
/// ICU reads 1 to 7 fractional digits there, but it needs the `.`. Azure stores a DateTime as 100-ns
/// ticks and serves it with trailing fractional zeros trimmed, whatever the client wrote, so a date on
/// a whole second comes back as `…:00Z`, which the app refuses: the event shows no date. A date on a
/// minute is a whole second.
package enum EventDateFormat: String, Sendable, CaseIterable, Codable {
    /// Each step of the resolution plus one tick (`18:56:00.0000001Z`): never a whole second, and
    /// served with all seven digits, so even a client that needs exactly seven reads it.
    case app
    /// The resolution's steps themselves (`18:56:00.0000000Z`), which Azure serves as `18:56:00Z`:
    /// data that exercises the bug.
    case azure
}

/// How `validate` judges an `EventDate`: by the client that reads it as Azure serves it.
public enum EventDateCheck: String, Sendable, CaseIterable, Codable {
    /// The app's parser (`yyyy-MM-dd'T'HH:mm:ss.SSSSSSS'Z'`) refuses the served form of a date on a whole second,
    /// the only form without a fraction; any other date it reads, with 1 to 7 digits.
    case app
    /// A client that needs exactly seven fractional digits, such as .NET's `ParseExact` with
    /// `fffffff`: every date whose last tick digit is 0 is served short.
    case exact7
    /// What the service accepts and stores: 0–7 fractional digits and `Z`.
    case azure
}

extension EdmDateTime {
    /// Whether the date lies on a whole second, so that Azure serves it without a fraction
    /// (`…:00Z`), the one served form the app's date pattern refuses.
    package var isWholeSecond: Bool { ticks % Self.ticksPerSecond == 0 }

    /// Whether Azure serves this date with all seven fractional digits (its last tick digit is not 0).
    package var survivesAzureTrimming: Bool { ticks % 10 != 0 }
}
