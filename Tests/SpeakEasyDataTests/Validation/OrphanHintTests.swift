import SpeakEasyData
import Testing

/// Events checked without their speakers are all orphans; the findings say why.
@Suite("orphans when no speaker was read")
struct OrphanHintTests {
    typealias D = ValidationData

    @Test("events alone: every orphan says that no speakers were read at all")
    func eventsAlone() {
        let events = D.clean.filter { $0.partitionKey == DataContract.eventsPartition }
        let orphans = D.validate(events).findings.filter { $0.rule == "references.orphan" }
        #expect(orphans.count == 3)
        #expect(
            orphans.allSatisfy {
                $0.message.contains("no speakers were read at all (their file was not given with the events)")
            },
            "\(orphans)"
        )
    }

    @Test("with speakers read, an orphan is only an orphan")
    func withSpeakers() {
        var entities = D.clean
        entities[2] = entities[2].setting("SpeakerKey", .string("99999999-0000-4000-8000-000000000000"))
        let orphans = D.validate(entities).findings.filter { $0.rule == "references.orphan" }
        #expect(orphans.count == 1)
        #expect(!orphans[0].message.contains("no speakers were read"), "\(orphans)")
    }
}
