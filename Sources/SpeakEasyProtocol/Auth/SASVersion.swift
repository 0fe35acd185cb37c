/// A storage service version (`sv`, `x-ms-version`): `YYYY-MM-DD`, ordered as dates.
///
/// Versions newer than any we know are accepted (azure-storage-blob 12.31.1 sends 2026-10-06): a
/// SAS layout holds from its version until the next layout's.
package struct SASVersion: Sendable, Comparable, Hashable, CustomStringConvertible {
    package let text: String

    /// Nil unless the text is four digits, `-`, two digits, `-`, two digits.
    package init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes.enumerated().allSatisfy({
                $0.offset == 4 || $0.offset == 7 || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0.element)
            })
        else { return nil }
        self.text = text
    }

    package static func < (lhs: SASVersion, rhs: SASVersion) -> Bool { lhs.text < rhs.text }
    package var description: String { text }

    /// The first version whose SAS layouts have `sip` and `spr`, and the first of the account SAS.
    package static let v2015_04_05 = SASVersion("2015-04-05")!
    /// The first version whose blob SAS signs `sr` and `snapshot`.
    package static let v2018_11_09 = SASVersion("2018-11-09")!
    /// The first version whose blob and account SAS sign `ses`.
    package static let v2020_12_06 = SASVersion("2020-12-06")!
    /// The oldest layout we read: 2012-02-12 (earlier SAS had no `sv`-selected layout we support).
    package static let v2012_02_12 = SASVersion("2012-02-12")!
    /// The first version whose blob SAS signs the response header overrides.
    package static let v2013_08_15 = SASVersion("2013-08-15")!
}
