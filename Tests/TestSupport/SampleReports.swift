package import SpeakEasyData

/// Validation reports the report-writer tests share (unit tests, and the schema checks in the
/// interop tests): every kind of location, both severities, and the text that breaks naive writers.
package enum SampleReports {
    /// The rules in the order reports list them; `refs.orphan` has no findings, so it passes.
    package static let rules: [RuleDescriptor] = [
        RuleDescriptor(id: "dates.format", severity: .error, summary: "EventDate is a DateTime in the app's pattern"),
        RuleDescriptor(id: "refs.orphan", severity: .error, summary: "every SpeakerKey names a speaker"),
        RuleDescriptor(id: "refs.mismatch", severity: .error, summary: "SpeakerName is the named speaker's Name"),
        RuleDescriptor(id: "contract.rowkey-guid", severity: .warning, summary: "RowKeys are GUIDs"),
        RuleDescriptor(id: "photos.unused", severity: .warning, summary: "every blob belongs to a speaker"),
    ]

    /// Both severities, every location kind, related locations, and hostile text: quotes, `<&>`,
    /// `%`, `:` and `,` in a path, a space, newlines, CR, non-ASCII and non-BMP, control characters.
    package static let tricky = ValidationReport(
        rules: rules,
        findings: [
            Finding(
                rule: "dates.format",
                severity: .error,
                message: "EventDate \"2024-05-01T10:00:00.2Z\" has 1 fractional digit, the app needs 7 <&> 100%",
                location: FindingLocation(
                    .file(path: "data/events.csv", line: 12),
                    partitionKey: "Events",
                    rowKey: "0f8fad5b-d9cb-469f-a165-70867728950e"
                )
            ),
            Finding(
                rule: "refs.mismatch",
                severity: .error,
                message:
                    "SpeakerName \"Bart Tubalinal\" ≠ \"Bart Tubalinál\"\nline two\r\nCR-LF, tab\there, bell\u{7} esc\u{1B} nul\u{0} 😀",
                location: FindingLocation(
                    .file(path: "odd dir/a:b,c%d#e?é.csv", line: 3),
                    partitionKey: "Events",
                    rowKey: "x"
                ),
                related: [
                    FindingLocation(
                        .file(path: "speakers.json", line: 40),
                        partitionKey: "speakers",
                        rowKey: "6f1c3b4e-8e0a-4a57-9a40-0b6a2a7f8c11"
                    ),
                    FindingLocation(
                        .table("events"),
                        partitionKey: "speakers",
                        rowKey: "6f1c3b4e-8e0a-4a57-9a40-0b6a2a7f8c11"
                    ),
                ]
            ),
            Finding(
                rule: "contract.rowkey-guid",
                severity: .warning,
                message: "RowKey \"not-a-guid\" is not a GUID",
                location: FindingLocation(.table("events"), partitionKey: "Events", rowKey: "not-a-guid")
            ),
            Finding(
                rule: "photos.unused",
                severity: .warning,
                message: "blob is used by no speaker",
                location: FindingLocation(.container("speakers", blob: "Old Photo, 2019.jpg"))
            ),
            Finding(
                rule: "dates.format",
                severity: .error,
                message: "EventDate is missing",
                location: FindingLocation(.file(path: "/abs/path/events.csv", line: 20))
            ),
            Finding(
                rule: "photos.unused",
                severity: .warning,
                message: "container \"speakers\" is not readable anonymously",
                location: FindingLocation(.container("speakers", blob: nil))
            ),
        ],
        inputs: ["data/events.csv", "odd dir/a:b,c%d#e?é.csv", "speakers.json"],
        entitiesChecked: 42,
        truncated: false
    )

    /// No rules ran and nothing was found.
    package static let empty = ValidationReport(
        rules: [],
        findings: [],
        inputs: [],
        entitiesChecked: 0,
        truncated: false
    )

    /// Rules ran and found nothing.
    package static let clean = ValidationReport(
        rules: rules,
        findings: [],
        inputs: ["events.csv"],
        entitiesChecked: 9,
        truncated: false
    )

    /// Cut short by --max-errors, with a finding for a rule the report does not describe.
    package static let truncatedWithUndescribedRule = ValidationReport(
        rules: [rules[0]],
        findings: [
            Finding(
                rule: "dates.format",
                severity: .error,
                message: "EventDate is missing",
                location: FindingLocation(.file(path: "events.csv", line: 2))
            ),
            Finding(
                rule: "keys.duplicate",
                severity: .error,
                message: "same keys twice",
                location: FindingLocation(.table("events"), partitionKey: "Events", rowKey: "a"),
                related: [FindingLocation(.table("events"), partitionKey: "Events", rowKey: "a")]
            ),
        ],
        inputs: ["events.csv"],
        entitiesChecked: 2,
        truncated: true
    )

    /// All of them, for tests that check every report against a schema.
    package static let all: [(name: String, report: ValidationReport)] = [
        ("tricky", tricky), ("empty", empty), ("clean", clean), ("truncated", truncatedWithUndescribedRule),
    ]
}
