/// The property types of Azure Table Storage.
public enum EdmType: String, CaseIterable, Sendable {
    /// Text.
    case string = "Edm.String"
    /// A 32-bit integer.
    case int32 = "Edm.Int32"
    /// A 64-bit integer.
    case int64 = "Edm.Int64"
    /// A 64-bit floating-point number.
    case double = "Edm.Double"
    /// True or false.
    case boolean = "Edm.Boolean"
    /// A UTC date and time in ticks of 100 ns.
    case dateTime = "Edm.DateTime"
    /// A GUID.
    case guid = "Edm.Guid"
    /// Bytes.
    case binary = "Edm.Binary"

    /// Reads `Edm.Int64` and the bare `Int64` that newer Azure Storage Explorer versions write.
    public init?(name: some StringProtocol) {
        let full = name.hasPrefix("Edm.") ? String(name) : "Edm." + name
        self.init(rawValue: full)
    }

    /// The name without the `Edm.` prefix.
    public var shortName: String { String(rawValue.dropFirst(4)) }
}
