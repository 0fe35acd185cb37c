import SpeakEasyData

/// The entities every benchmark works on: seeded events, as `seed --seed 1` makes them (a 1 KB
/// description each, dates at the app's seven digits), from the samples built into the library.
enum SampleEvents {
    /// Entities a reader or writer benchmark handles in one iteration.
    static let count = 10_000

    static let generator: SeedGenerator = {
        do {
            let options = GeneratorOptions(
                seed: 1,
                eventCount: count,
                speakerCount: 100,
                from: EdmDateTime(year: 2026, month: 1, day: 1)!,
                cutoff: EdmDateTime(year: 2026, month: 12, day: 31)!,
                resolution: .minute,
                photoBaseURL: "http://127.0.0.1:10000/devstoreaccount1/photos/"
            )
            return try SeedGenerator(catalog: SampleCatalog.builtIn(), options: options)
        } catch {
            fatalError("the built-in samples make no generator: \(error)")
        }
    }()

    /// The events in key order, as entities.
    static let entities: [Entity] = generator.eventDrawsInKeyOrder().map { generator.event(for: $0).entity }

    /// The entities in `format`, as `export` writes them.
    static func bytes(_ format: DataFormat) -> [UInt8] {
        do {
            return try EntityFiles.bytes(of: entities, options: EntityFiles.WriteOptions(format: format))
        } catch {
            fatalError("the sample events cannot be written as \(format): \(error)")
        }
    }
}
