import SpeakEasyCore
import SpeakEasyModel

/// A RowKey in 17 bytes: the 128 bits of a lower-case GUID, or the number of an interned string for
/// any other RowKey (rare, and warned about by `contract.rowkey-guid`).
///
/// Only the exact lower-case 8-4-4-4-12 form is kept as a GUID: Azure keys are case-sensitive, so
/// `ABC…` and `abc…` are different keys and must not meet in one GUID.
struct CompactKey: Hashable, Sendable {
    var high: UInt64
    var low: UInt64
    var isGUID: Bool

    /// A cheap 64-bit fingerprint: GUIDs are random already, interned numbers are distinct.
    var fingerprint: UInt64 { isGUID ? high ^ low.rotated(by: 29) : low | 1 << 63 }

    /// Parses the lower-case GUID form; nil for anything else.
    static func guid(_ text: String) -> CompactKey? {
        var text = text
        return text.withUTF8 { EdmGuid(lowerCase: UnsafeRawBufferPointer($0)) }.map(CompactKey.init(guid:))
    }
}

extension CompactKey {
    init(guid: EdmGuid) {
        self.init(high: guid.high, low: guid.low, isGUID: true)
    }
}
