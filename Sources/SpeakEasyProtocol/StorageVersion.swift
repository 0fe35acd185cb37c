/// The `x-ms-version` values the server accepts: Azure Storage's service versions.
///
/// Azure refuses a version it does not have with 400 InvalidHeaderValue (Azurite does too, against
/// the same list: `ValidAPIVersions` in its `src/table/utils/constants.ts` at 9074bea3, which this
/// copies, plus 2026-10-06, the version azure-storage-blob 12.31.1 sends). A well-formed date after
/// the newest one listed is accepted as well: a newer SDK than this list knows should keep working
/// until the list learns its version, as it would against Azure, which knows it.
package enum StorageVersion {
    package static let known: Set<String> = [
        "2026-10-06", "2026-06-06", "2026-04-06", "2026-02-06", "2025-11-05", "2025-07-05", "2025-05-05", "2025-01-05",
        "2024-11-04", "2024-08-04", "2024-05-04", "2024-02-04", "2023-11-03", "2023-08-03", "2023-01-03", "2022-11-02",
        "2021-12-02", "2021-10-04", "2021-08-06", "2021-06-08", "2021-04-10", "2021-02-12", "2020-12-06", "2020-10-02",
        "2020-08-04", "2020-06-12", "2020-04-08", "2020-02-10", "2019-12-12", "2019-10-10", "2019-07-07", "2019-02-02",
        "2018-11-09", "2018-03-28", "2017-11-09", "2017-07-29", "2017-04-17", "2016-05-31", "2015-12-11", "2015-07-08",
        "2015-04-05", "2015-02-21", "2014-02-14", "2013-08-15", "2012-02-12", "2011-08-18", "2009-09-19", "2009-07-17",
        "2009-04-14",
    ]
    package static let newest = known.max()!

    /// Whether a request may name `version`.
    package static func isAccepted(_ version: String) -> Bool {
        if known.contains(version) { return true }
        return isDate(version) && version > newest
    }

    /// `yyyy-MM-dd` in digits, with a month and a day that can be (the form every version has).
    private static func isDate(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return false }
        let digits = bytes.enumerated().filter { $0.offset != 4 && $0.offset != 7 }.map(\.element)
        guard digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return false }
        let month = Int(bytes[5] - 48) * 10 + Int(bytes[6] - 48)
        let day = Int(bytes[8] - 48) * 10 + Int(bytes[9] - 48)
        return (1...12).contains(month) && (1...31).contains(day)
    }
}

extension WireError {
    /// 400 InvalidHeaderValue for an `x-ms-version` that is no service version.
    package static func unsupportedVersion(_ version: String) -> Self {
        Self(
            status: 400,
            code: "InvalidHeaderValue",
            message:
                "The value for one of the HTTP headers is not in the correct format (x-ms-version: \(version.prefix(64)))."
        )
    }
}
