/// A JSON scalar as read, numbers kept in their lexical form so `10.0` stays a Double and
/// `9223372036854775807` stays exact.
package enum JSONScalar: Equatable, Sendable {
    case string(String)
    case number(String)
    case boolean(Bool)
    case null
}
