public import SpeakEasyCore

/// Seed options the generator cannot satisfy: too many events for the dates and speakers there are,
/// a window with no date in it, a `cutoff` before `from`. Thrown before anything is written.
public struct GenerationError: ClassifiedError, Equatable, Sendable {
    /// What is wrong, in words, naming the options by ``SeedOptions``' names (`eventCount`, `from`).
    public let reason: String
    /// The same, naming the `seed` tool's options (`--events`, `--from`).
    package let toolDescription: String

    /// A reason in the library's words and the tool's, from one wording given each one's names.
    package init(_ reason: (GeneratorOptionNames) -> String) {
        self.reason = reason(.library)
        toolDescription = reason(.tool)
    }

    /// Always ``FailureKind/usage``: the options, not the data or the store, are at fault.
    public var kind: FailureKind { .usage }
    /// The reason.
    public var description: String { reason }
}

/// How an error names the generator's options: as ``SeedOptions``' properties, or as `seed`'s options.
package struct GeneratorOptionNames: Sendable {
    package let events: String
    package let speakers: String
    package let from: String
    package let cutoff: String
    package let resolution: String

    /// ``SeedOptions``' names, for the library.
    package static let library = GeneratorOptionNames(
        events: "eventCount",
        speakers: "speakerCount",
        from: "from",
        cutoff: "cutoff",
        resolution: "resolution"
    )
    /// `seed`'s options.
    package static let tool = GeneratorOptionNames(
        events: "--events",
        speakers: "--speakers",
        from: "--from",
        cutoff: "--cutoff",
        resolution: "--resolution"
    )
}
