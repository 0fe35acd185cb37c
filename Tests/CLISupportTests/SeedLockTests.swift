import Foundation
import Testing

@testable import CLISupport

@Suite("the seed lock")
struct SeedLockTests {
    @Test("a store is marked as being seeded once seed holds its lock, and not before")
    func holdThenHeld() throws {
        let path = FileManager.default.temporaryDirectory.path + "/seedlock-" + UUID().uuidString
        try Data("store".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(!SeedLock.isHeld(path))
        // flock belongs to an open file description: the probe's own descriptor meets the lock
        // even in the process that holds it.
        SeedLock.hold(path)
        #expect(SeedLock.isHeld(path))
        #expect(!SeedLock.isHeld(path + ".missing"))
    }
}
