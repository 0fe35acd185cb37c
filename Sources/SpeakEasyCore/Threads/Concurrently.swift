/// Runs `body` for every item, at most `limit` at once, in the order given as far as starting goes.
/// The first error cancels the work not yet finished and is thrown once the rest have stopped.
package func forEachConcurrently<Item: Sendable>(
    _ items: [Item],
    limit: Int,
    _ body: @escaping @Sendable (Item) async throws -> Void
) async throws {
    guard items.count > 1, limit > 1 else {
        for item in items { try await body(item) }
        return
    }
    try await withThrowingTaskGroup(of: Void.self) { group in
        var next = items.startIndex
        while next < items.endIndex, next < limit {
            let item = items[next]
            group.addTask { try await body(item) }
            next += 1
        }
        // One finished, the next starts: `limit` in flight until the items run out.
        while try await group.next() != nil {
            guard next < items.endIndex else { continue }
            let item = items[next]
            group.addTask { try await body(item) }
            next += 1
        }
    }
}
