import SpeakEasyData
import Testing

@testable import SpeakEasyValidation

/// The compact duplicate sets: fingerprints are verified, so collisions neither invent nor hide
/// duplicates.
@Suite("EventIndex")
struct EventIndexTests {
    static func record(_ key: CompactKey, ticks: Int64 = 1, name: UInt32 = 1, line: UInt32) -> EventRecord {
        EventRecord(
            key: key,
            ticks: ticks,
            name: name,
            location: 1,
            speaker: 1,
            line: line,
            source: 0,
            isComplete: true
        )
    }

    @Test("two keys with the same fingerprint are different keys; a repeat of either is found")
    func keyCollision() {
        let a = CompactKey(high: 1, low: 0, isGUID: true)
        let b = CompactKey(high: 0, low: UInt64(1).rotated(by: 64 - 29), isGUID: true)
        #expect(a.fingerprint == b.fingerprint)
        #expect(a != b)
        var index = EventIndex()
        #expect(index.add(Self.record(a, ticks: 1, line: 1), checkEvents: true).sameKey == nil)
        #expect(index.add(Self.record(b, ticks: 2, line: 2), checkEvents: true).sameKey == nil)
        #expect(index.add(Self.record(b, ticks: 3, line: 3), checkEvents: true).sameKey == 1)
        #expect(index.add(Self.record(a, ticks: 4, line: 4), checkEvents: true).sameKey == 0)
    }

    @Test("the same event is found by its fields, not by its key")
    func sameEvent() {
        var index = EventIndex()
        let first = index.add(Self.record(CompactKey(high: 1, low: 1, isGUID: true), line: 1), checkEvents: true)
        let other = index.add(
            Self.record(CompactKey(high: 2, low: 2, isGUID: true), name: 2, line: 2),
            checkEvents: true
        )
        let again = index.add(Self.record(CompactKey(high: 3, low: 3, isGUID: true), line: 3), checkEvents: true)
        #expect(first.sameEvent == nil && other.sameEvent == nil)
        #expect(again.sameEvent == 0)
        #expect(index[again.number].line == 3)
    }

    @Test("records past one chunk keep their numbers")
    func manyRecords() {
        var index = EventIndex()
        for n in 0..<70_000 {
            let added = index.add(
                Self.record(
                    CompactKey(high: UInt64(n), low: UInt64(n) &* 0x9E37_79B9, isGUID: true),
                    ticks: Int64(n),
                    line: UInt32(n)
                ),
                checkEvents: true
            )
            #expect(added.sameKey == nil && added.sameEvent == nil && added.number == UInt32(n))
        }
        #expect(index[69_999].line == 69_999)
        #expect(index.count == 70_000)
    }

    @Test("only the exact lower-case GUID form is a GUID key")
    func guidForm() {
        #expect(CompactKey.guid("0a6c2c5e-1b7e-4b8e-9c1a-6f0e2d3c4b5a") != nil)
        #expect(CompactKey.guid("0A6C2C5E-1B7E-4B8E-9C1A-6F0E2D3C4B5A") == nil)
        #expect(CompactKey.guid("0a6c2c5e1b7e4b8e9c1a6f0e2d3c4b5a") == nil)
        let key = CompactKey.guid("0a6c2c5e-1b7e-4b8e-9c1a-6f0e2d3c4b5a")!
        #expect(EdmGuid(high: key.high, low: key.low).description == "0a6c2c5e-1b7e-4b8e-9c1a-6f0e2d3c4b5a")
    }

    @Test("the fingerprint table finds every fingerprint it stored, across growth")
    func fingerprintTable() {
        var table = FingerprintTable()
        var generator = SplitMix64(seed: 7)
        let prints = (0..<100_000).map { _ in generator.next() }
        for (number, print) in prints.enumerated() { #expect(table.existing(print, orInsert: UInt32(number)) == nil) }
        for (number, print) in prints.enumerated().reversed() where number % 997 == 0 {
            #expect(table.existing(print, orInsert: 0) == UInt32(number))
        }
        #expect(table.count == 100_000)
    }

    @Test("a copied fingerprint table changes apart from the original")
    func fingerprintTableCopy() {
        var table = FingerprintTable()
        #expect(table.existing(1, orInsert: 10) == nil)
        var copy = table
        #expect(copy.existing(2, orInsert: 20) == nil)
        #expect(table.existing(2, orInsert: 30) == nil)
        #expect(copy.existing(2, orInsert: 0) == 20 && table.existing(2, orInsert: 0) == 30)
        #expect(copy.existing(1, orInsert: 0) == 10 && table.existing(1, orInsert: 0) == 10)
    }

    @Test("the interner numbers each distinct string once, in order of appearance")
    func interner() {
        var interner = StringNumbering()
        let texts =
            (0..<5_000).map { "name \($0 % 1_000) é" } + [
                "", "a", "Chicago, IL", "0a6c2c5e-1b7e-4b8e-9c1a-6f0e2d3c4b5a",
            ]
        let numbers = texts.map { interner.number($0) }
        #expect(interner.strings.count == 1_004)
        for (text, number) in zip(texts, numbers) { #expect(interner[number] == text) }
        #expect(numbers[0] == 0 && numbers[1_000] == 0 && numbers[999] == 999)
    }
}
