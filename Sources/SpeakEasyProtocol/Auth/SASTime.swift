package import SpeakEasyModel

/// The times of a SAS (`st`, `se`): ISO 8601 in UTC, as Azure accepts them.
package enum SASTime {
    /// Parses `YYYY-MM-DD`, `YYYY-MM-DDThh:mmZ`, `YYYY-MM-DDThh:mm:ssZ` and
    /// `YYYY-MM-DDThh:mm:ss.fffffffZ` (the forms Azure's "Create a service SAS" page lists).
    package static func parse(_ text: String) -> EdmDateTime? {
        let bytes = Array(text.utf8)
        var normalized = text
        switch bytes.count {
        case 10: normalized = text + "T00:00:00Z"
        case 17 where bytes.last == UInt8(ascii: "Z"): normalized = String(text.dropLast()) + ":00Z"
        default: break
        }
        return try? EdmDateTime(parsing: normalized)
    }

    /// `YYYY-MM-DDThh:mm:ssZ`, the form the Python SDKs write.
    package static func format(_ date: EdmDateTime) -> String {
        let full = date.description  // yyyy-MM-ddTHH:mm:ss.fffffffZ
        return String(full.prefix(19)) + "Z"
    }
}
