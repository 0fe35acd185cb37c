import SpeakEasyCore
import SpeakEasyModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        if Self.appendWriterSpelled(object, annotated: annotated, to: &out) { return }
        try appendScanned(object, annotated: annotated, to: &out)
    }

    /// ``appendMembers(ofObject:annotated:to:)`` through the scanner, for any object.
    package mutating func appendScanned(
        _ object: UnsafeRawBufferPointer,
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

    // MARK: - The writer's own spelling, in one pass

    /// Copies the members of an object spelled exactly as ``JSONEntityWriter`` writes it, in one pass
    /// and with no member list: each DateTime's annotation just before its value, no white space,
    /// names without escapes, strings escaped as the writer escapes them, numbers without exponents.
    /// That is every object the local store holds, and what a page of them costs: the general path
    /// spent a third of `serve`'s CPU on a scan of `bench/azure-export` (perf), most of it building
    /// and reading the member list. Any other object is left to the general path (false, with
    /// nothing appended), which says what it makes of it.
    package static func appendWriterSpelled(
        _ raw: UnsafeRawBufferPointer,
        annotated: Bool,
        to out: inout [UInt8]
    ) -> Bool {
        let start = out.count
        guard let end = appendWriterSpelledMembers(raw, annotated: annotated, to: &out), end == raw.count else {
            out.removeSubrange(start...)
            return false
        }
        return true
    }

    /// The members of the object at the start of `raw` appended, and where the object ends; nil for
    /// one not in the writer's spelling (with some of it appended).
    private static func appendWriterSpelledMembers(
        _ raw: UnsafeRawBufferPointer,
        annotated: Bool,
        to out: inout [UInt8]
    ) -> Int? {
        let count = raw.count
        guard count >= 2, raw[0] == UInt8(ascii: "{") else { return nil }
        if raw[1] == UInt8(ascii: "}") { return 2 }
        var index = 1
        // The property the member before annotated as a DateTime: the writer puts the value next.
        var dateName: Range<Int>?
        // Members in a row that are copied as they are, appended as one run: a member at a time
        // (two appends each), a page's reply took 6% longer (serve-query-page, wall clock).
        var run = MemberRun()
        while true {
            guard index < count, raw[index] == UInt8(ascii: "\"") else { return nil }
            let key = (index + 1)..<JSONStringBytes.nextSpecial(raw, from: index + 1)
            guard key.upperBound + 2 < count, raw[key.upperBound] == UInt8(ascii: "\""),
                raw[key.upperBound + 1] == UInt8(ascii: ":")
            else { return nil }
            let valueStart = key.upperBound + 2
            let annotates = JSONTypeAnnotation.annotatedName(key, in: raw)
            var isDate = false
            if let name = dateName {
                guard equal(raw, key, name) else { return nil }
                isDate = true
                dateName = nil
            }
            let member = (key.lowerBound - 1)..<valueStart
            switch raw[valueStart] {
            case UInt8(ascii: "\""):
                guard let (close, escaped, _) = JSONStringBytes.writerSpelledEnd(raw, from: valueStart + 1) else {
                    return nil
                }
                index = close + 1
                let text = (valueStart + 1)..<close
                // The scanner decodes a string with escapes and checks it is UTF-8 (its escapes
                // here stand for ASCII): one it would refuse is left to it.
                guard !escaped || UTF8Text.isValid(UnsafeRawBufferPointer(rebasing: raw[text])) else { return nil }
                if let name = annotates {
                    if equal(raw, text, dateTimeType) { dateName = name }
                    guard annotated else { break }
                }
                // A date, unless what the annotation named is itself an annotation.
                let date = UnsafeRawBufferPointer(rebasing: raw[text])
                if isDate, annotates == nil, (try? EdmDateTime.parse(date)) != nil {
                    run.end(from: raw, to: &out)
                    out.append(UInt8(ascii: ","))
                    out.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[member]))
                    out.append(UInt8(ascii: "\""))
                    EdmDateTime.appendLexicalForm(ofParsed: date, to: &out, trimmed: true)
                    out.append(UInt8(ascii: "\""))
                } else {
                    run.add(member.lowerBound..<index, from: raw, to: &out)
                }
            case _ where annotates != nil:
                // An annotation that is no string is none the writer writes.
                return nil
            case UInt8(ascii: "n"):
                // Null members are left out, as the decoder leaves them out.
                guard starts(raw, at: valueStart, with: "null") else { return nil }
                index = valueStart + 4
            case UInt8(ascii: "t"), UInt8(ascii: "f"):
                let word: StaticString = raw[valueStart] == UInt8(ascii: "t") ? "true" : "false"
                guard starts(raw, at: valueStart, with: word) else { return nil }
                index = valueStart + word.utf8CodeUnitCount
                run.add(member.lowerBound..<index, from: raw, to: &out)
            default:
                guard let end = plainNumberEnd(raw, from: valueStart) else { return nil }
                index = end
                run.add(member.lowerBound..<index, from: raw, to: &out)
            }
            guard index < count else { return nil }
            if raw[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard raw[index] == UInt8(ascii: "}"), dateName == nil else { return nil }
            run.end(from: raw, to: &out)
            return index + 1
        }
    }

    private static let dateTimeType: StaticString = "Edm.DateTime"

    /// Where a number without an exponent ends (`-?(0|[1-9][0-9]*)(\.[0-9]+)?`); nil for any other.
    private static func plainNumberEnd(_ raw: UnsafeRawBufferPointer, from: Int) -> Int? {
        var index = from
        func digits() -> Int {
            let first = index
            while index < raw.count, raw[index] &- UInt8(ascii: "0") < 10 { index += 1 }
            return index - first
        }
        if index < raw.count, raw[index] == UInt8(ascii: "-") { index += 1 }
        let leading = index
        let whole = digits()
        guard whole > 0, whole == 1 || raw[leading] != UInt8(ascii: "0") else { return nil }
        if index < raw.count, raw[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return nil }
        }
        guard index < raw.count, raw[index] != UInt8(ascii: "e"), raw[index] != UInt8(ascii: "E") else { return nil }
        return index
    }

    private static func starts(_ raw: UnsafeRawBufferPointer, at index: Int, with word: StaticString) -> Bool {
        let length = word.utf8CodeUnitCount
        guard index + length <= raw.count else { return false }
        return memcmp(raw.baseAddress! + index, word.utf8Start, length) == 0
    }

    private static func equal(_ raw: UnsafeRawBufferPointer, _ range: Range<Int>, _ word: StaticString) -> Bool {
        range.count == word.utf8CodeUnitCount && starts(raw, at: range.lowerBound, with: word)
    }

    private static func equal(_ raw: UnsafeRawBufferPointer, _ a: Range<Int>, _ b: Range<Int>) -> Bool {
        a.count == b.count && memcmp(raw.baseAddress! + a.lowerBound, raw.baseAddress! + b.lowerBound, a.count) == 0
    }

    // MARK: - Any object, through the scanner

    /// The property a plain key annotates (`Name` of `Name@odata.type`), nil for other members.
    private static func annotatedName(
        _ key: JSONMember.Text,
        _ bytes: UnsafeBufferPointer<UInt8>
    ) -> UnsafeBufferPointer<UInt8>? {
        guard case .plain(let range, _) = key,
            let name = JSONTypeAnnotation.annotatedName(range, in: UnsafeRawBufferPointer(bytes))
        else { return nil }
        return UnsafeBufferPointer(rebasing: bytes[name])
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
