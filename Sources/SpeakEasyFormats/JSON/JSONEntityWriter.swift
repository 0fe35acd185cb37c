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

    /// Appends what goes between a JSON string's quotes.
    private static func appendEscapedContent(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            var index = firstByteNeedingEscape(bytes, from: 0)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<index]))
            guard index < bytes.count else { return }  // most strings: nothing to escape, one copy
            // The rest is escaped into a buffer of its largest size (six bytes a byte), then appended
            // with one copy. Appended to the array run by run and escape by escape, prose with quotes
            // and line breaks spent 18% of CSV→JSON's samples in the appends.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: (bytes.count - index) * 6) { buffer in
                let target = buffer.baseAddress!
                var written = 0
                var start = index
                while true {
                    (target + written).initialize(from: bytes.baseAddress! + start, count: index - start)
                    written += index - start
                    guard index < bytes.count else { break }
                    written += writeEscape(bytes[index], to: target + written)
                    index += 1
                    start = index
                    index = firstByteNeedingEscape(bytes, from: index)
                }
                out.append(contentsOf: UnsafeBufferPointer(start: target, count: written))
            }
        }
    }

    /// The index of the first `"`, `\\` or control character at or after `from` (or `count`).
    /// Looks at eight bytes at a time: strings are long (descriptions, bios) and rarely need escaping.
    private static func firstByteNeedingEscape(_ bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
        let quotes = SWAR.broadcast(0x22)
        let backslashes = SWAR.broadcast(0x5C)
        return SWAR.firstMarkedByte(in: UnsafeRawBufferPointer(bytes), from: from) { word in
            SWAR.bytes(word, equalTo: quotes) | SWAR.bytes(word, equalTo: backslashes) | SWAR.bytes(word, below: 0x20)
        }
    }

    /// Writes the escape of `byte` at `target`; how many bytes that took (2, or 6 for `\u00XX`).
    @inline(__always)
    private static func writeEscape(_ byte: UInt8, to target: UnsafeMutablePointer<UInt8>) -> Int {
        target[0] = UInt8(ascii: "\\")
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): target[1] = byte
        case 0x0A: target[1] = UInt8(ascii: "n")
        case 0x0D: target[1] = UInt8(ascii: "r")
        case 0x09: target[1] = UInt8(ascii: "t")
        default:
            let hex: StaticString = "0123456789abcdef"
            (target[1], target[2], target[3]) = (UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"))
            target[4] = hex.utf8Start[Int(byte >> 4)]
            target[5] = hex.utf8Start[Int(byte & 0xF)]
            return 6
        }
        return 2
    }
}
