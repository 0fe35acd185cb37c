#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A first-in first-out queue of a few elements between one producing and one consuming thread.
///
/// `push` waits while the queue is full, so a fast producer cannot run ahead of the consumer by more
/// than `capacity` elements: memory stays bounded. The consumer can `close` the queue to tell the
/// producer to stop.
///
/// A POSIX mutex and condition variable: the standard library's `Synchronization.Mutex` cannot be
/// waited on, and this queue's waits are what keeps memory bounded. Both are the same POSIX calls in
/// Glibc and Darwin; state that needs no waiting uses `Locked` (as `PieceDispenser` does).
package final class BoundedQueue<Element: Sendable>: @unchecked Sendable {
    // Heap-allocated: a pthread mutex or condition must not move in memory.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Taken elements are nil until the array is compacted: a taken element left in it stays alive,
    /// with all it holds (seed's SQLite writes each held a batch of 2,500 events), for as long as
    /// the queue never runs empty, which on a busy machine was most of a run.
    private var items: [Element?] = []
    private var head = 0
    private let capacity: Int
    private var closed = false

    package init(capacity: Int) {
        self.capacity = capacity
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        changed.deallocate()
        mutex.deallocate()
    }

    /// Adds `element`, waiting for room; false (and nothing added) once the consumer has closed.
    package func push(_ element: Element) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while items.count - head >= capacity, !closed { pthread_cond_wait(changed, mutex) }
        guard !closed else { return false }
        items.append(element)
        pthread_cond_broadcast(changed)
        return true
    }

    /// The oldest element, waiting for one.
    package func pop() -> Element {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while items.count == head { pthread_cond_wait(changed, mutex) }
        return takeOldest()
    }

    /// Adds `element` if there is room, without waiting; false (and nothing added) otherwise.
    package func tryPush(_ element: Element) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard items.count - head < capacity, !closed else { return false }
        items.append(element)
        pthread_cond_broadcast(changed)
        return true
    }

    /// The oldest element if there is one, without waiting.
    package func tryPop() -> Element? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return items.count > head ? takeOldest() : nil
    }

    /// Removes and returns the oldest element; the mutex is held and there is one.
    private func takeOldest() -> Element {
        let element = items[head]!
        items[head] = nil
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64, head * 2 >= items.count {
            // Never empty: drop the taken slots now and then (amortised O(1) a pop).
            items.removeFirst(head)
            head = 0
        }
        pthread_cond_broadcast(changed)
        return element
    }

    /// The consumer stops: waiting and later pushes return false.
    package func close() {
        pthread_mutex_lock(mutex)
        closed = true
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
    }
}
