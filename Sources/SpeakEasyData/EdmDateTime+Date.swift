public import Foundation
public import SpeakEasyModel

extension EdmDateTime {
    /// 2001-01-01T00:00:00Z, `Date`'s reference date, in ticks.
    private static let referenceDateTicks: Int64 = 631_139_040_000_000_000

    /// The instant a `Date` stands for, to the nearest 100 ns; nil outside 0001-01-01 … 9999-12-31.
    ///
    /// A `Date` is a `Double` of seconds, which near today holds about 0.1 µs: a `Date` made from an
    /// ``EdmDateTime`` may be a tick off its ticks, so keep the ``EdmDateTime`` where they matter.
    public init?(_ date: Date) {
        let ticks = (date.timeIntervalSinceReferenceDate * Double(Self.ticksPerSecond)).rounded()
        guard ticks.isFinite, abs(ticks) < 0x1p62 else { return nil }
        self.init(ticks: Self.referenceDateTicks + Int64(ticks))
    }

    /// The same instant as a `Date`, to the precision a `Date` holds.
    public var date: Date {
        let ticks = ticks - Self.referenceDateTicks
        let seconds = Double(ticks / Self.ticksPerSecond)
        let fraction = Double(ticks % Self.ticksPerSecond) / Double(Self.ticksPerSecond)
        return Date(timeIntervalSinceReferenceDate: seconds + fraction)
    }
}
