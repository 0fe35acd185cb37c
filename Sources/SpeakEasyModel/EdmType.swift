/// The property types of Azure Table Storage.
package enum EdmType: String, CaseIterable, Sendable {
    case string = "Edm.String"
    case int32 = "Edm.Int32"
    case int64 = "Edm.Int64"
    case double = "Edm.Double"
    case boolean = "Edm.Boolean"
    case dateTime = "Edm.DateTime"
    case guid = "Edm.Guid"
    case binary = "Edm.Binary"

    /// Reads `Edm.Int64` and the bare `Int64` that newer Azure Storage Explorer versions write.
    package init?(name: some StringProtocol) {
        let full = name.hasPrefix("Edm.") ? String(name) : "Edm." + name
        self.init(rawValue: full)
    }

    /// The name without the `Edm.` prefix.
    package var shortName: String { String(rawValue.dropFirst(4)) }
}
