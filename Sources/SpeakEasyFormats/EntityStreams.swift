package import SpeakEasyModel

/// A stream of entities read from some input, one at a time, in input order.
///
/// Readers hold only the entity being read and a bounded input buffer, so memory stays flat however
/// large the input. Errors name the source, line and column.
package protocol EntityReader {
    /// The next entity, or nil at the end of the input.
    mutating func next() throws(FormatError) -> Entity?
    /// Where the entity most recently returned by ``next()`` starts: 1-based line (for reports).
    var entityLine: Int { get }
    /// The next entity, or an event in the contract's plain shape from a reader asked for those
    /// (``PlainEvent``); nil at the end of the input.
    mutating func nextItem() throws(FormatError) -> EntityItem?
}

extension EntityReader {
    package mutating func nextItem() throws(FormatError) -> EntityItem? { try next().map(EntityItem.entity) }
}

/// What a reader hands over: an entity, or an event whose entity a reader asked for plain events
/// did not need to build.
package enum EntityItem: Sendable {
    case entity(Entity)
    case plainEvent(PlainEvent)
}

/// Turns entities into the bytes of a format. Pure: the caller owns the output buffer and moves it to
/// a file or stdout when it is large enough, so writers can be tested without any I/O.
package protocol EntityFormatter {
    /// Appends what precedes the first entity (a feed's opening, a CSV header if already known).
    mutating func begin(into out: inout [UInt8])
    /// Appends one entity; throws when the format cannot hold it (e.g. a property name Atom forbids).
    mutating func append(_ entity: Entity, into out: inout [UInt8]) throws(FormatError)
    /// Appends what follows the last entity.
    mutating func end(into out: inout [UInt8])
}

/// A reader whose work on each entity splits in two: finding its parts, which must follow the input
/// in order, and making its values, which can run on another thread (``PrefetchingFileReader``).
package protocol StagedEntityReader: AnyObject, EntityReader {
    /// The next entity's parts, or nil at the end of the input.
    func nextStaged() throws(FormatError) -> (any StagedEntity)?
}

/// An entity's parts as a ``StagedEntityReader`` found them.
package protocol StagedEntity: Sendable {
    /// The line where the entity starts (``EntityReader/entityLine``).
    var line: Int { get }
    /// Makes the entity; throws what is wrong with its values.
    func entity() throws(FormatError) -> Entity
}
