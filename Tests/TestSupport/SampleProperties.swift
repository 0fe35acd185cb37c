package import SpeakEasyData

// Values the test targets share: unit tests, interop tests.

extension EdmDateTime {
    /// A date from a literal the tests know to be valid.
    package static func at(_ text: String) -> EdmDateTime {
        do { return try EdmDateTime(parsing: text) } catch { fatalError("bad test date \(text): \(error)") }
    }
}

extension EdmGuid {
    package static func literal(_ text: String) -> EdmGuid {
        guard let guid = EdmGuid(text) else { fatalError("bad test GUID \(text)") }
        return guid
    }
}

/// One property of every Edm type, with the extremes that most easily get lost on the way.
package enum SampleProperties {
    package static let everyType: [Property] = [
        Property("Text", .string("Ada \"the\" Countess\\of\nLovelace 😀")),
        Property("Empty", .string("")),
        Property("Int32Min", .int32(.min)),
        Property("Int32Max", .int32(.max)),
        Property("Int64Min", .int64(.min)),
        Property("Int64Max", .int64(.max)),
        Property("Int64Small", .int64(1)),
        Property("DoubleNaN", .double(.nan)),
        Property("DoubleInfinity", .double(.infinity)),
        Property("DoubleNegativeInfinity", .double(-.infinity)),
        Property("DoubleNegativeZero", .double(-0.0)),
        Property("DoubleMin", .double(.leastNonzeroMagnitude)),  // 4.94065645841247E-324
        Property("DoubleMax", .double(1.7976931348623157E+308)),
        Property("DoubleTen", .double(10.0)),
        Property("DoubleFraction", .double(0.1)),
        Property("True", .boolean(true)),
        Property("False", .boolean(false)),
        Property("DateTick", .dateTime(.at("2012-11-10T03:04:05.0000001Z"))),
        Property("DateMin", .dateTime(.min)),
        Property("DateMax", .dateTime(.max)),
        Property("Guid", .guid(.literal("c9da6455-213d-42c9-9a79-3e9149a57833"))),
        Property("Binary", .binary([0, 1, 2, 0x7F, 0x80, 0xFE, 0xFF])),
        Property("BinaryEmpty", .binary([])),
    ]

    /// ``everyType`` with the values Azure Storage can hold: DateTime from 1601-01-01 on, as Azure
    /// refuses earlier dates (the storage protocol promises no more than Azure keeps).
    package static let storable: [Property] = everyType.map { property in
        property.name == "DateMin" ? Property("DateMin", .dateTime(.at("1601-01-01T00:00:00.0000000Z"))) : property
    }
}
