package import Foundation

/// The SpeakEasy app's date parser, as the independent judge of the dates it is given.
///
/// The app parses `EventDate` with `NSDateFormatter`, pattern `yyyy-MM-dd'T'HH:mm:ss.SSSSSSS'Z'`, in
/// `en_US_POSIX` and UTC. That is ICU's parser, and so is Foundation's `DateFormatter` here.
package enum AppDateFormatter {
    /// The app's formatter; `lenient` is the one setting the app's source leaves open.
    package static func make(lenient: Bool = false) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSSSSSS'Z'"
        formatter.isLenient = lenient
        return formatter
    }
}
