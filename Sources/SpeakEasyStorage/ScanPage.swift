package import SpeakEasyModel

/// What a ``ParallelScan`` needs of a page it reads: how many entities it holds, the keys of any of
/// them, and where the query goes on. A page of decoded entities is one; so is a page kept in the
/// wire's JSON with only its keys read, for a reader that copies the JSON through.
package protocol ScanPage: Sendable {
    var count: Int { get }
    func partitionKey(at index: Int) -> String
    func rowKey(at index: Int) -> String
    /// Where the query goes on after this page; nil at its end.
    var next: ContinuationToken? { get }
}

extension QueryPage: ScanPage where Element == Entity {
    package var count: Int { entities.count }
    package func partitionKey(at index: Int) -> String { entities[index].partitionKey }
    package func rowKey(at index: Int) -> String { entities[index].rowKey }
}
