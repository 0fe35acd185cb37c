import SpeakEasyCore
import SpeakEasyModel

/// The slots of a ``DateWindow`` that a ``LocalTimeRule`` allows, counted and numbered in closed
/// form: a window can span eight thousand years at tick resolution, far too many slots to visit.
///
/// The allowed instants repeat with a period `P` of one day (any weekday) or one week (a named one):
/// in UTC ticks they are the intervals `[kP + α, kP + α + L)` for every integer `k`, where `L` is
/// 13 hours (08:00–21:00) and `α` is the rule's first allowed local instant of a period — 08:00,
/// plus the weekday's days since Monday for a week — minus the UTC offset, taken modulo `P`. The
/// window's grid (``DateWindow/index(atOrAfter:)``, `G` below) has a date every step or every
/// tick not ending in 0; both divide a day, so each period holds the same number `m` of allowed
/// grid dates, `G(α + L) - G(α)`. Then the allowed dates in `..<x` number
/// `F(x) = k·m + G(α + kP + min(r, L)) - G(α + kP)`, with `k = ⌊(x - α) / P⌋` and `r = x - α - kP`,
/// counted from the period that begins at `α` (so `F` is negative before it); the window holds
/// `F(last + 1) - F(first)` of them, and the allowed date of rank `n` in the window is the
/// `ρ`-th grid date from `α + jP`, where `j = ⌊(F(first) + n) / m⌋` and `ρ = F(first) + n - j·m`.
package struct AllowedSlots: Sendable, Hashable {
    /// How many slots of the window the rule allows (0: none).
    package let count: UInt64
    private let window: DateWindow
    private let period: Int64
    private let alpha: Int64
    private let perPeriod: Int64
    /// `F(first)`: allowed grid dates before the window, counted from the period at `α`.
    private let before: Int64

    /// The length of the allowed stretch of each day.
    static let allowedLength = (LocalTimeRule.endHour - LocalTimeRule.firstHour) * EdmDateTime.ticksPerHour

    package init(window: DateWindow, rule: LocalTimeRule) {
        let day = EdmDateTime.ticksPerDay
        let period = rule.weekday == nil ? day : 7 * day
        // Local day 0 (0001-01-01) was a Monday, so the named weekday begins its days' number × 1 day into each local week.
        let start = LocalTimeRule.firstHour * EdmDateTime.ticksPerHour + Int64(rule.weekday?.rawValue ?? 0) * day
        let alpha = floorModulo(start - rule.offsetTicks, period)
        self.window = window
        self.period = period
        self.alpha = alpha
        perPeriod = window.index(atOrAfter: alpha + Self.allowedLength) - window.index(atOrAfter: alpha)
        let firstTicks = window.first.ticks
        let endTicks = window.last.ticks + 1
        let first = Self.allowedBefore(firstTicks, window: window, period: period, alpha: alpha, perPeriod: perPeriod)
        let end = Self.allowedBefore(endTicks, window: window, period: period, alpha: alpha, perPeriod: perPeriod)
        before = first
        count = UInt64(end - first)
    }

    /// `F(x)`: the allowed grid dates in `..<ticks`, counted from the period that begins at `α`.
    private static func allowedBefore(
        _ ticks: Int64,
        window: DateWindow,
        period: Int64,
        alpha: Int64,
        perPeriod: Int64
    ) -> Int64 {
        let k = floorDivision(ticks - alpha, period)
        let periodStart = alpha + k * period
        let into = min(ticks - periodStart, allowedLength)
        return k * perPeriod + window.index(atOrAfter: periodStart + into) - window.index(atOrAfter: periodStart)
    }

    /// The window slot (``DateWindow/date(at:)``) of the allowed date of rank `rank`, `0..<count`,
    /// in date order.
    @inline(__always)
    package func slot(at rank: UInt64) -> UInt64 {
        let target = before + Int64(rank)
        let j = floorDivision(target, perPeriod)
        let index = window.index(atOrAfter: alpha + j * period) + (target - j * perPeriod)
        return UInt64(index - window.firstIndex)
    }
}
