import SpeakEasyCore
import SpeakEasyModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One entity object of a Query Entities reply that Azure spelled as ``JSONFormatter`` writes it,
/// checked and copied in one pass, with no member list: ``JSONPageCopier``'s common case.
///
/// It takes the objects that the copier's member-list path copies without decoding anything and
/// without writing anything differently from the reply (no white space, names as they are, strings
/// escaped as the writer escapes them, DateTimes with seven fractional digits), and refuses every
/// other (nil), which that path then reads. So the two write the same bytes, and the tests hold both
/// to the decoder's. Building and reading the member list was about half of the copy's time at
/// `export --store … --parallel 16` (perf: the scan 26% of export's CPU, the copy 21%).
enum JSONReplyCopy {
    /// Where a copied object ends in the reply, and where its keys were written.
    struct Copied {
        var end: Int
        var partitionKey: Range<Int>
        var rowKey: Range<Int>
    }

    /// Appends the object at `start` of `raw` as the formatter writes it; nil for one this pass does
    /// not take, with some of it appended. `names` is scratch space for the property names.
    static func append(
        _ raw: UnsafeRawBufferPointer,
        at start: Int,
        names: inout [Range<Int>],
        to out: inout [UInt8]
    ) -> Copied? {
        var reader = Reader(raw: raw, index: start)
        guard reader.consume(UInt8(ascii: "{")) else { return nil }
        out.append(UInt8(ascii: "{"))
        // The etag, PartitionKey and RowKey, copied as they are.
        let header = reader.index
        var name = reader.memberName()
        if let etag = name, reader.equal(etag, "odata.etag") {
            guard reader.string() != nil, reader.consume(UInt8(ascii: ",")) else { return nil }
            name = reader.memberName()
        }
        guard let partition = name, reader.equal(partition, "PartitionKey"),
            let (partitionKey, partitionEscaped) = reader.string(), !partitionEscaped,
            reader.consume(UInt8(ascii: ",")),
            let row = reader.memberName(), reader.equal(row, "RowKey"),
            let (rowKey, rowEscaped) = reader.string(), !rowEscaped
        else { return nil }
        let shift = out.count - header
        out.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[header..<reader.index]))
        var run = MemberRun()
        names.removeAll(keepingCapacity: true)
        var first = true
        while reader.consume(UInt8(ascii: ",")) {
            let member = reader.index
            guard let name = reader.memberName() else { return nil }
            if first, reader.equal(name, "Timestamp") {
                guard reader.appendDate(member, run: &run, to: &out) else { return nil }
            } else if let annotated = JSONTypeAnnotation.annotatedName(name, in: raw) {
                // Only a DateTime's annotation, just before its value.
                guard reader.isProperty(annotated), let (type, _) = reader.string(), reader.equal(type, "Edm.DateTime")
                else { return nil }
                run.add(member..<reader.index, from: raw, to: &out)
                let dateMember = reader.index + 1
                guard reader.consume(UInt8(ascii: ",")), let named = reader.memberName(),
                    reader.equal(named, annotated), reader.appendDate(dateMember, run: &run, to: &out)
                else { return nil }
                names.append(annotated)
            } else {
                guard reader.isProperty(name), reader.string() != nil else { return nil }
                run.add(member..<reader.index, from: raw, to: &out)
                names.append(name)
            }
            first = false
        }
        guard reader.consume(UInt8(ascii: "}")), reader.areDistinct(names) else { return nil }
        run.end(from: raw, to: &out)
        out.append(UInt8(ascii: "}"))
        return Copied(
            end: reader.index,
            partitionKey: partitionKey.shifted(by: shift),
            rowKey: rowKey.shifted(by: shift)
        )
    }

    /// The reply's bytes read from `index` on, member by member.
    private struct Reader {
        let raw: UnsafeRawBufferPointer
        var index: Int

        mutating func consume(_ byte: UInt8) -> Bool {
            guard index < raw.count, raw[index] == byte else { return false }
            index += 1
            return true
        }

        /// `"name":`, an ASCII name without escapes; its range.
        mutating func memberName() -> Range<Int>? {
            guard consume(UInt8(ascii: "\"")) else { return nil }
            var nonASCII: UInt64 = 0
            let end = JSONStringBytes.nextSpecial(raw, from: index, nonASCII: &nonASCII)
            guard end + 1 < raw.count, raw[end] == UInt8(ascii: "\""), raw[end + 1] == UInt8(ascii: ":") else {
                return nil
            }
            let name = index..<end
            // The flag may come from bytes read past the name, so a name it flags is looked at again.
            guard nonASCII == 0 || !raw[name].contains(where: { $0 >= 0x80 }) else { return nil }
            index = end + 2
            return name
        }

        /// A string spelled as the writer spells it, and valid UTF-8: the range of its text, and
        /// whether it has escapes.
        mutating func string() -> (Range<Int>, escaped: Bool)? {
            guard consume(UInt8(ascii: "\"")),
                let (close, escaped, ascii) = JSONStringBytes.writerSpelledEnd(raw, from: index)
            else { return nil }
            let text = index..<close
            guard ascii || UTF8Text.isValid(UnsafeRawBufferPointer(rebasing: raw[text])) else { return nil }
            index = close + 1
            return (text, escaped)
        }

        /// The DateTime of the member at `member` (whose name has been read), added to `run` when
        /// it already has seven fractional digits, else written again with them.
        mutating func appendDate(_ member: Int, run: inout MemberRun, to out: inout [UInt8]) -> Bool {
            let value = index
            guard let (text, escaped) = string(), !escaped else { return false }
            let date = UnsafeRawBufferPointer(rebasing: raw[text])
            guard (try? EdmDateTime.parse(date)) != nil else { return false }
            if date.count == 28, date[27] == UInt8(ascii: "Z") {
                run.add(member..<index, from: raw, to: &out)
            } else {
                run.end(from: raw, to: &out)
                out.append(UInt8(ascii: ","))
                out.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[member...value]))
                EdmDateTime.appendLexicalForm(ofParsed: date, to: &out, trimmed: false)
                out.append(UInt8(ascii: "\""))
            }
            return true
        }

        func equal(_ range: Range<Int>, _ text: StaticString) -> Bool {
            range.count == text.utf8CodeUnitCount
                && memcmp(raw.baseAddress! + range.lowerBound, text.utf8Start, range.count) == 0
        }

        func equal(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
            a.count == b.count && memcmp(raw.baseAddress! + a.lowerBound, raw.baseAddress! + b.lowerBound, a.count) == 0
        }

        /// A name the decoder reads as a property and the formatter writes: not an annotation, not in
        /// `odata.`'s namespace, not a key or the Timestamp.
        func isProperty(_ name: Range<Int>) -> Bool {
            !UnsafeRawBufferPointer(rebasing: raw[name]).contains(UInt8(ascii: "@"))
                && !(name.count >= 6 && equal(name.lowerBound..<(name.lowerBound + 6), "odata."))
                && !equal(name, "PartitionKey") && !equal(name, "RowKey") && !equal(name, "Timestamp")
        }

        /// Whether no property name repeats (a repeat is the decoder's error to report). Entities
        /// have few properties; more than a few dozen go to the decoder.
        func areDistinct(_ names: [Range<Int>]) -> Bool {
            guard names.count <= 32 else { return false }
            for i in names.indices {
                for j in 0..<i where equal(names[j], names[i]) { return false }
            }
            return true
        }
    }
}

extension Range<Int> {
    fileprivate func shifted(by offset: Int) -> Range<Int> { (lowerBound + offset)..<(upperBound + offset) }
}
