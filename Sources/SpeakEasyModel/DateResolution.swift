/// The step between possible event dates.
package enum DateResolution: String, CaseIterable, Codable, Sendable {
    case day, hour, minute, second, tick

    /// The step in 100-ns ticks.
    package var ticks: Int64 {
        switch self {
        case .day: EdmDateTime.ticksPerDay
        case .hour: EdmDateTime.ticksPerHour
        case .minute: EdmDateTime.ticksPerMinute
        case .second: EdmDateTime.ticksPerSecond
        case .tick: 1
        }
    }
}
