import SpeakEasyModel

/// A stored properties object in Azure Table's wire spelling, without decoding it.
///
/// The local store keeps an entity's properties as the object ``JSONEntityWriter`` writes (minimal
/// metadata). Azure's replies spell two things differently: a DateTime with its trailing zeros
/// trimmed, and a Double's exponent as .NET writes it (`1E+16`). A query page copies the stored
/// members through and rewrites only those, which costs a fraction of decoding every entity into
/// values and encoding them again; the tests hold the bytes to the encoder's.
package struct JSONWireSpelling {
    private var members: [JSONMember] = []
    /// The names annotated as DateTimes, in the object being copied.
    private var dateTimes: [UnsafeBufferPointer<UInt8>] = []

    package init() {}

    /// Appends the members of `object` (a stored properties object), each after a comma: with their
    /// `@odata.type` annotations when `annotated`, without them otherwise. Null members are left
    /// out, as the decoder leaves them out.
    package mutating func appendMembers(
        ofObject object: UnsafeRawBufferPointer,
        annotated: Bool,
        to out: inout [UInt8]
    ) throws(JSONSyntaxError) {
        var scanner = JSONObjectScanner(object)
        try scanner.scanObject(into: &members)
        let bytes = object.bindMemory(to: UInt8.self)
        // Names and annotations are identifiers, which the writer never escapes: only plain keys are
        // looked at; an escaped one is copied as any other member.
        dateTimes.removeAll(keepingCapacity: true)
        for member in members {
            guard let name = Self.annotatedName(member.key, bytes), case .string(.plain(let type, _)) = member.value,
                UnsafeBufferPointer(rebasing: bytes[type]).elementsEqual("Edm.DateTime".utf8)
            else { continue }
            dateTimes.append(name)
        }
        for member in members {
            if case .null = member.value { continue }
            let isAnnotation = Self.annotatedName(member.key, bytes) != nil
            if isAnnotation && !annotated { continue }
            out.append(UInt8(ascii: ","))
            Self.appendString(member.key, bytes, to: &out)
            out.append(UInt8(ascii: ":"))
            switch member.value {
            case .string(let text):
                if !dateTimes.isEmpty, !isAnnotation, case .plain(let key, _) = member.key,
                    case .plain(let value, _) = text,
                    dateTimes.contains(where: { $0.elementsEqual(UnsafeBufferPointer(rebasing: bytes[key])) }),
                    let time = try? EdmDateTime(parsingUTF8: UnsafeBufferPointer(rebasing: bytes[value]))
                {
                    out.append(UInt8(ascii: "\""))
                    time.append(to: &out, trimmed: true)
                    out.append(UInt8(ascii: "\""))
                } else {
                    Self.appendString(text, bytes, to: &out)
                }
            case .number(let range):
                Self.appendNumber(UnsafeBufferPointer(rebasing: bytes[range]), to: &out)
            case .boolean(let value):
                out.append(contentsOf: (value ? "true" : "false").utf8)
            case .null:
                continue
            }
        }
    }

    private static let annotationSuffix = Array("@odata.type".utf8)

    /// The property a plain key annotates (`Name` of `Name@odata.type`), nil for other members.
    private static func annotatedName(
        _ key: JSONMember.Text,
        _ bytes: UnsafeBufferPointer<UInt8>
    ) -> UnsafeBufferPointer<UInt8>? {
        guard case .plain(let range, _) = key, range.count > annotationSuffix.count else { return nil }
        let split = range.upperBound - annotationSuffix.count
        guard UnsafeBufferPointer(rebasing: bytes[split..<range.upperBound]).elementsEqual(annotationSuffix) else {
            return nil
        }
        return UnsafeBufferPointer(rebasing: bytes[range.lowerBound..<split])
    }

    private static func appendString(
        _ text: JSONMember.Text,
        _ bytes: UnsafeBufferPointer<UInt8>,
        to out: inout [UInt8]
    ) {
        switch text {
        case .plain(let range, _):
            // No escapes: the bytes between the quotes are the writer's own.
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range]))
            out.append(UInt8(ascii: "\""))
        case .escaped(let string):
            JSONEntityWriter.appendString(string, to: &out)
        }
    }

    /// A number as stored, with .NET's exponent: `1e+16` → `1E+16`, `5e-324` → `5E-324`, `1e16` → `1E+16`.
    private static func appendNumber(_ number: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        guard let e = number.firstIndex(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) else {
            out.append(contentsOf: number)
            return
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: number[..<e]))
        out.append(UInt8(ascii: "E"))
        let exponent = UnsafeBufferPointer(rebasing: number[(e + 1)...])
        if let sign = exponent.first, sign != UInt8(ascii: "-"), sign != UInt8(ascii: "+") {
            out.append(UInt8(ascii: "+"))
        }
        out.append(contentsOf: exponent)
    }
}
