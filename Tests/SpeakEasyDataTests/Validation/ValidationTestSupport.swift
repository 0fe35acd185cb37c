import SpeakEasyData
import TestSupport

/// Small, valid data to break one rule at a time.
enum ValidationData {
    static let bartKey = "0a6c2c5e-1b7e-4b8e-9c1a-6f0e2d3c4b5a"
    static let daryaKey = "1b7d3d6f-2c8f-4c9f-8d2b-7a1f3e4d5c6b"

    static func speaker(_ key: String, _ name: String, photo: String) -> Entity {
        Speaker(
            key: key,
            name: name,
            title: "Consultant",
            bio: "\(name) is a Consultant.",
            imageUrl: "http://127.0.0.1:10000/speakeasy/speakers/\(photo)"
        ).entity
    }

    static func event(
        _ key: String,
        date: String = "2026-03-01T09:30:00.0000001Z",
        name: String = "iOS Meetup",
        location: String = "Chicago, IL",
        speakerKey: String = bartKey,
        speakerName: String = "Bart Tubalinal"
    ) -> Entity {
        Event(
            key: key,
            date: .at(date),
            name: name,
            location: location,
            description: "Lorem ipsum.",
            speakerKey: speakerKey,
            speakerName: speakerName
        ).entity
    }

    /// Two speakers and three distinct events: no finding at all.
    static var clean: [Entity] {
        [
            speaker(bartKey, "Bart Tubalinal", photo: "BTubalinal.jpg"),
            speaker(daryaKey, "Darya Orlova", photo: "DOrlova.jpg"),
            event("e0000000-0000-4000-8000-000000000001"),
            event(
                "e0000000-0000-4000-8000-000000000002",
                location: "Madison, WI",
                speakerKey: daryaKey,
                speakerName: "Darya Orlova"
            ),
            event("e0000000-0000-4000-8000-000000000003", date: "2026-04-01T18:00:00.0000001Z"),
        ]
    }

    /// Runs the validator over entities as if read from one file, entity n on line n + 1.
    static func validate(
        _ entities: [Entity],
        options: ValidationOptions = ValidationOptions(),
        path: String = "data.ndjson"
    ) -> ValidationReport {
        var validator = Validator(options: options)
        validator.begin(.file(path))
        for (index, entity) in entities.enumerated() {
            validator.check(entity, line: index + 1)
            if validator.isFull { break }
        }
        if !validator.isFull { validator.finishReferences() }
        return ValidationReport(
            rules: FileValidation.rules(options).map(\.descriptor),
            findings: validator.findings,
            inputs: [path],
            entitiesChecked: validator.entitiesChecked,
            truncated: validator.isFull
        )
    }
}

extension Entity {
    /// A copy with one property replaced (or added), or removed when `value` is nil.
    func setting(_ name: String, _ value: EdmValue?) -> Entity {
        var copy = self
        copy.properties.removeAll { $0.name == name }
        if let value { copy.properties.append(Property(name, value)) }
        return copy
    }

    func withKeys(_ partitionKey: String? = nil, _ rowKey: String? = nil) -> Entity {
        var copy = self
        if let partitionKey { copy.partitionKey = partitionKey }
        if let rowKey { copy.rowKey = rowKey }
        return copy
    }
}

extension EdmDateTime {
    /// A date parsed from text, keeping how it was written (as every reader does).
    static func written(_ text: String) -> EdmDateTime { try! EdmDateTime(parsing: text) }
}
