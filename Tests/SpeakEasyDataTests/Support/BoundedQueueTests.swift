import Testing

@testable import SpeakEasyCore

@Suite("bounded queue")
struct BoundedQueueTests {
    final class Payload: Sendable {}

    @Test("a taken element is not kept alive by the queue, even while the queue never runs empty")
    func takenElementsAreReleased() {
        let queue = BoundedQueue<Payload>(capacity: 4)
        weak var taken: Payload?
        do {
            let first = Payload()
            taken = first
            #expect(queue.push(first))
        }
        #expect(queue.push(Payload()))  // the queue does not run empty when the first is taken
        _ = queue.pop()
        #expect(taken == nil, "the queue still holds the element it gave out")
        // And so on for many: the taken slots do not pile up.
        for _ in 0..<1_000 {
            #expect(queue.push(Payload()))
            _ = queue.pop()
        }
        #expect(queue.tryPop() != nil)
        #expect(queue.tryPop() == nil)
    }
}
