import SpeakEasyCore
package import SpeakEasyModel

/// Writes entity properties as Azure Table JSON, annotated as the service annotates them.
package enum JSONEntityWriter {
    /// Appends `{"Prop":value,…}` holding only the properties (no keys, no Timestamp), with
    /// `Prop@odata.type` where `metadata` calls for it. This is the form the SQLite account stores.
    package static func appendPropertiesObject(
        _ properties: [Property],
        metadata: JSONMetadata = .minimal,
        to out: inout [UInt8]
    ) {
        out.append(UInt8(ascii: "{"))
        var first = true
        for property in properties {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            appendProperty(property, metadata: metadata, to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Appends `"Name@odata.type":"Edm.X","Name":value` (the annotation only where needed).
    package static func appendProperty(_ property: Property, metadata: JSONMetadata, to out: inout [UInt8]) {
        appendPropertyHead(property.name, of: property.value, metadata: metadata, to: &out)
        appendValue(property.value, to: &out)
    }

    /// Appends what precedes a property's value: `"Name@odata.type":"Edm.X","Name":`.
    package static func appendPropertyHead(
        _ name: String,
        of value: EdmValue,
        metadata: JSONMetadata,
        to out: inout [UInt8]
    ) {
        if metadata != .none, needsAnnotation(value) {
            // `"Name@odata.type"` without building that String.
            out.append(UInt8(ascii: "\""))
            appendEscapedContent(name, to: &out)
            out.append(contentsOf: "@odata.type\"".utf8)
            out.append(UInt8(ascii: ":"))
            appendString(value.type.rawValue, to: &out)
            out.append(UInt8(ascii: ","))
        }
        appendString(name, to: &out)
        out.append(UInt8(ascii: ":"))
    }

    /// Whether JSON alone would lose the value's type: Int64, DateTime, Guid, Binary and the
    /// non-finite doubles, which are JSON strings.
    package static func needsAnnotation(_ value: EdmValue) -> Bool {
        switch value {
        case .string, .int32, .boolean: false
        case .double(let v): !v.isFinite
        case .int64, .dateTime, .guid, .binary: true
        }
    }

    package static func appendValue(_ value: EdmValue, to out: inout [UInt8]) {
        switch value {
        case .string(let v): appendString(v, to: &out)
        case .int32(let v): out.append(contentsOf: String(v).utf8)
        case .double(let v) where v.isFinite: out.append(contentsOf: EdmValue.lexical(v).utf8)
        case .boolean(let v): out.append(contentsOf: (v ? "true" : "false").utf8)
        case .dateTime(let v):
            out.append(UInt8(ascii: "\""))
            v.append(to: &out)
            out.append(UInt8(ascii: "\""))
        case .int64, .double, .guid, .binary: appendString(value.description, to: &out)
        }
    }

    /// Appends a JSON string literal; non-ASCII stays raw UTF-8, control characters are escaped.
    package static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        appendEscapedContent(text, to: &out)
        out.append(UInt8(ascii: "\""))
    }

    /// ``appendString(_:to:)`` of text given as its UTF-8 bytes.
    package static func appendString(utf8 text: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        SWAR.appendRewriting(
            text.assumingMemoryBound(to: UInt8.self),
            to: &out,
            escapes,
            from: JSONStringBytes.marksSpecial
        )
        out.append(UInt8(ascii: "\""))
    }

    /// Appends what goes between a JSON string's quotes.
    private static func appendEscapedContent(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in SWAR.appendRewriting(bytes, to: &out, escapes, from: JSONStringBytes.marksSpecial) }
    }

    /// JSON's escapes of a string's bytes: `\"`, `\\`, `\n`, `\r`, `\t`, and `\u00XX` for the other
    /// control characters.
    private static let escapes = ByteRewriteTable { byte in
        let hex = Array("0123456789abcdef".utf8)
        return switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): [UInt8(ascii: "\\"), byte]
        case 0x0A: Array("\\n".utf8)
        case 0x0D: Array("\\r".utf8)
        case 0x09: Array("\\t".utf8)
        case ..<0x20: Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
        default: nil
        }
    }
}
