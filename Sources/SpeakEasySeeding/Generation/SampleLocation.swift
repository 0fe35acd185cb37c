/// A place events happen, with its offset from UTC in standard time (see ``LocalTimeRule``: daylight
/// saving time is ignored).
///
/// In `catalog.json` an entry of `locations` is `{ "name": "Chicago, IL", "utcOffsetMinutes": -360 }`;
/// a plain string, as catalogs wrote before offsets existed, is a place on UTC.
package struct SampleLocation: Sendable, Hashable, Decodable {
    package var name: String
    /// Minutes east of UTC: -360 for Chicago, 330 for Bengaluru.
    package var utcOffsetMinutes: Int

    /// The widest offsets in use on Earth: UTC-12:00 to UTC+14:00.
    package static let offsetRange = -12 * 60...14 * 60

    package init(name: String, utcOffsetMinutes: Int) {
        self.name = name
        self.utcOffsetMinutes = utcOffsetMinutes
    }

    private enum CodingKeys: String, CodingKey { case name, utcOffsetMinutes }

    package init(from decoder: any Decoder) throws {
        if let name = try? decoder.singleValueContainer().decode(String.self) {
            self.init(name: name, utcOffsetMinutes: 0)
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try container.decode(String.self, forKey: .name),
            utcOffsetMinutes: try container.decode(Int.self, forKey: .utcOffsetMinutes)
        )
    }
}
