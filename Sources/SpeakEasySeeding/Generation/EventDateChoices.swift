/// The (event name, location) pairs an event can take, each with the window's slots its
/// ``LocalTimeRule`` allows: 08:00–21:00 in the location's local time, on the weekday the name names
/// if it names one. Pairs the window gives no allowed slot (a "Mondays" event in a window without a
/// Monday) are left out, so they are never drawn.
package struct EventDateChoices: Sendable {
    package struct Pair: Sendable {
        package var name: UInt16
        package var location: UInt16
        package var slots: AllowedSlots
    }

    /// In catalog order, name by name, then location by location.
    package let pairs: [Pair]
    /// The (name, location, date) combinations: the sum of every pair's allowed slots, exact.
    package let total: UInt128

    package init(catalog: SampleCatalog, window: DateWindow) {
        var pairs: [Pair] = []
        var total: UInt128 = 0
        for (nameIndex, name) in catalog.eventNames.enumerated() {
            let weekday = Weekday(namedIn: name)
            for (locationIndex, location) in catalog.locations.enumerated() {
                let slots = AllowedSlots(
                    window: window,
                    rule: LocalTimeRule(utcOffsetMinutes: location.utcOffsetMinutes, weekday: weekday)
                )
                guard slots.count > 0 else { continue }
                pairs.append(Pair(name: UInt16(nameIndex), location: UInt16(locationIndex), slots: slots))
                total += UInt128(slots.count)
            }
        }
        self.pairs = pairs
        self.total = total
    }
}
