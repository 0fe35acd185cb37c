import SpeakEasyModel

/// The spreadsheet layout: CSV for a person who opens it in LibreOffice Calc or Excel.
///
/// What differs from the plain layout, and why:
/// - the columns a person reads come first, in the order a person reads them (``peopleOrder``), the
///   keys last, and the store's Timestamp not at all (unless `columns` lists it);
/// - dates are written `2026-03-01 18:30:00`, the form Calc recognises as a date when it opens a
///   CSV (it keeps `2026-03-01T18:30:00.0000000Z` as text), in UTC, to the millisecond, a
///   spreadsheet's resolution, with the fraction only when it is not zero (trailing zeros trimmed;
///   Calc still reads it as a date): seed's app-safe `18:30:00.0000001` is the `18:30:00` a person
///   reads, since the file is never read back; the header says so: `EventDate (UTC)`;
/// - the file starts with a UTF-8 byte order mark, without which Excel reads "Müller" as "MÃ¼ller".
///
/// It is for people, not for reading back: its dates are not `Edm.DateTime`'s lexical form, so
/// ``CSVEntityReader`` refuses a header with a `(UTC)` column rather than take the dates for strings.
extension CSVFormatter {
    /// The UTF-8 byte order mark.
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Appended to a date column's name in the header.
    package static let utcSuffix = " (UTC)"

    /// The contract's properties in the order a person reads them: an event's date, name, place and
    /// speaker before its description and the speaker's key; a speaker's name before title and bio.
    static let peopleOrder = [
        "EventDate", "EventName", "EventLocation", "SpeakerName", "EventDescription", "SpeakerKey",
        "Name", "Title", "Bio", "ImageUrl",
    ]

    /// `names` with the contract's properties first, in ``peopleOrder``, the others after them in
    /// their own order.
    static func inPeopleOrder(_ names: [String]) -> [String] {
        let rank = { (name: String) in peopleOrder.firstIndex(of: name) ?? peopleOrder.count }
        return names.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(
            \.element
        )
    }

    /// Appends `2026-03-01 18:30:00` (UTC, cut to the millisecond; `.5`, `.123`… only for a
    /// fraction that is not zero).
    static func appendSpreadsheetDate(_ date: EdmDateTime, into out: inout [UInt8]) {
        let start = out.count
        let ticksPerMillisecond: Int64 = 10_000
        EdmDateTime(uncheckedTicks: date.ticks - date.ticks % ticksPerMillisecond).append(to: &out, trimmed: true)
        out[start + 10] = UInt8(ascii: " ")  // the T between date and time
        out.removeLast()  // the Z: the header says UTC
    }
}
