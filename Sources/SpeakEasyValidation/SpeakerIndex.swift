/// The speakers seen so far, by interned speaker key: what references and photos are checked against.
struct SpeakerIndex: Sendable {
    struct Entry: Sendable {
        var rowKey: String
        var name: String?
        var imageUrl: String?
        var source: UInt16
        var line: UInt32
    }

    /// Indexed by the interned key number; nil where a key was referenced but is not a speaker.
    private(set) var entries: [Entry?] = []
    /// Numbers of the speakers, in the order they were seen.
    private(set) var order: [UInt32] = []

    subscript(key: UInt32) -> Entry? {
        Int(key) < entries.count ? entries[Int(key)] : nil
    }

    /// Adds a speaker; false when one with that key is already there (the first one stays).
    mutating func add(_ entry: Entry, key: UInt32) -> Bool {
        if Int(key) >= entries.count {
            entries.append(contentsOf: repeatElement(nil, count: Int(key) + 1 - entries.count))
        }
        guard entries[Int(key)] == nil else { return false }
        entries[Int(key)] = entry
        order.append(key)
        return true
    }
}
