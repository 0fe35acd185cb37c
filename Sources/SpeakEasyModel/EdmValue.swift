/// A typed property value of an Azure table entity.
public enum EdmValue: Sendable, CustomStringConvertible {
    /// `Edm.String`: UTF-16 text of at most 64 KiB.
    case string(String)
    /// `Edm.Int32`.
    case int32(Int32)
    /// `Edm.Int64`, exact: JSON carries it as a string, so no reader rounds it through a Double.
    case int64(Int64)
    /// `Edm.Double`, NaN and the infinities included.
    case double(Double)
    /// `Edm.Boolean`.
    case boolean(Bool)
    /// `Edm.DateTime`: UTC, in ticks of 100 ns.
    case dateTime(EdmDateTime)
    /// `Edm.Guid`.
    case guid(EdmGuid)
    /// `Edm.Binary`: at most 64 KiB, Base64 in text formats.
    case binary([UInt8])

    /// The value's Edm type.
    public var type: EdmType {
        switch self {
        case .string: .string
        case .int32: .int32
        case .int64: .int64
        case .double: .double
        case .boolean: .boolean
        case .dateTime: .dateTime
        case .guid: .guid
        case .binary: .binary
        }
    }

    /// The value's lexical form, as Atom, CSV and JSON strings carry it.
    public var description: String {
        switch self {
        case .string(let value): value
        case .int32(let value): String(value)
        case .int64(let value): String(value)
        case .double(let value): Self.lexical(value)
        case .boolean(let value): value ? "true" : "false"
        case .dateTime(let value): value.description
        case .guid(let value): value.description
        case .binary(let value): Base64.encode(value)
        }
    }

    /// `NaN`, `Infinity` and `-Infinity` for the special values; otherwise Swift's shortest
    /// round-tripping form, which always keeps a `.` or an exponent (`10.0`, `5e-324`).
    package static func lexical(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        return value.description
    }

    /// Parses a lexical form as the given type; nil when it does not fit the type.
    package init?(lexical text: String, as type: EdmType) {
        switch type {
        case .string: self = .string(text)
        case .int32:
            guard let value = Int32(text) else { return nil }
            self = .int32(value)
        case .int64:
            guard let value = Int64(text) else { return nil }
            self = .int64(value)
        case .double:
            guard let value = Self.parseDouble(text) else { return nil }
            self = .double(value)
        case .boolean:
            switch text {
            case "true", "True", "TRUE": self = .boolean(true)
            case "false", "False", "FALSE": self = .boolean(false)
            default: return nil
            }
        case .dateTime:
            guard let value = try? EdmDateTime(parsing: text) else { return nil }
            self = .dateTime(value)
        case .guid:
            guard let value = EdmGuid(text) else { return nil }
            self = .guid(value)
        case .binary:
            guard let value = Base64.decode(text) else { return nil }
            self = .binary(value)
        }
    }

    /// Accepts the spellings of every SDK: `NaN`, `INF`/`Infinity`, `-INF`/`-Infinity` (and Python's
    /// `nan`, `inf`, `-inf`, which azure-storage 0.20.3 writes in Atom), and decimal forms.
    package static func parseDouble(_ text: String) -> Double? {
        switch text {
        case "NaN", "nan": return .nan
        case "INF", "Infinity", "inf": return .infinity
        case "-INF", "-Infinity", "-inf": return -.infinity
        default:
            // Double(_:) also takes "nan", "inf" and hex floats; only decimal forms are Edm.Double.
            guard let first = text.utf8.first,
                first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: ".")
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first),
                !text.contains(where: { $0 == "x" || $0 == "X" || $0 == "n" || $0 == "N" || $0 == "i" || $0 == "I" })
            else { return nil }
            // A finite number too large for a Double (1e999) is out of range, not Infinity.
            return Double(text).flatMap { $0.isFinite ? $0 : nil }
        }
    }

    /// Whether `text` is a well-formed number that is no value of `type` only because it is too
    /// large, so that messages can say "out of range" rather than "not valid".
    package static func isOutOfRange(_ text: String, as type: EdmType) -> Bool {
        let digits = text.utf8.drop { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") }
        switch type {
        case .int32, .int64:
            return !digits.isEmpty && digits.allSatisfy { $0 &- UInt8(ascii: "0") < 10 }
                && EdmValue(lexical: text, as: type) == nil
        case .double:
            return parseDouble(text) == nil && Double(text)?.isInfinite == true
                && !text.contains(where: { $0 == "n" || $0 == "N" || $0 == "i" || $0 == "I" || $0 == "x" || $0 == "X" })
        default:
            return false
        }
    }
}

extension EdmValue: Hashable {
    /// Values are equal when type and exact value match: doubles compare by bit pattern, so
    /// `NaN == NaN` and `-0.0 != 0.0`, which is what a lossless round trip must preserve.
    public static func == (lhs: EdmValue, rhs: EdmValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): a == b
        case (.int32(let a), .int32(let b)): a == b
        case (.int64(let a), .int64(let b)): a == b
        case (.double(let a), .double(let b)): a.bitPattern == b.bitPattern
        case (.boolean(let a), .boolean(let b)): a == b
        case (.dateTime(let a), .dateTime(let b)): a == b
        case (.guid(let a), .guid(let b)): a == b
        case (.binary(let a), .binary(let b)): a == b
        default: false
        }
    }

    /// Hashes the value as ``==`` compares it.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(type)
        switch self {
        case .string(let v): hasher.combine(v)
        case .int32(let v): hasher.combine(v)
        case .int64(let v): hasher.combine(v)
        case .double(let v): hasher.combine(v.bitPattern)
        case .boolean(let v): hasher.combine(v)
        case .dateTime(let v): hasher.combine(v)
        case .guid(let v): hasher.combine(v)
        case .binary(let v): hasher.combine(v)
        }
    }
}
