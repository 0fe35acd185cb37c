import Glibc
import SpeakEasyData
import Synchronization
import Testing

@Suite("Blocking work off the cooperative pool")
struct OffPoolTests {
    struct Refused: Error, Equatable { let code: Int }
    final class Count: Sendable { let value = Atomic<Int>(0) }

    @Test("returns the body's value, and the body may change the caller's state")
    func returnsValue() async {
        var seen: [Int] = []
        let total = await offPool { () -> Int in
            for number in 1...4 { seen.append(number) }
            return seen.reduce(0, +)
        }
        #expect(total == 10)
        #expect(seen == [1, 2, 3, 4])
    }

    @Test("throws the body's error, with its type")
    func throwsTyped() async {
        await #expect(throws: Refused(code: 7)) {
            try await offPool { () throws(Refused) -> Int in throw Refused(code: 7) }
        }
    }

    // More bodies than the pool has threads, each waiting until all have started: on the pool they
    // could never all start (the test would fail at the deadline); each on its own thread, they do.
    @Test("bodies that block do not hold up one another or the pool")
    func blockingBodiesRunTogether() async {
        let cores = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        let participants = cores * 2 + 2
        let started = Count()
        let allStarted = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<participants {
                group.addTask {
                    await offPool { () -> Bool in
                        started.value.add(1, ordering: .sequentiallyConsistent)
                        for _ in 0..<10_000 {  // at most 10 s
                            if started.value.load(ordering: .sequentiallyConsistent) == participants { return true }
                            usleep(1000)
                        }
                        return false
                    }
                }
            }
            return await group.allSatisfy { $0 }
        }
        #expect(allStarted)
    }
}
