/// Turns text in a ``TextEncoding`` into UTF-8 a chunk at a time: a UTF-16 code unit or surrogate
/// pair cut by the end of a chunk is carried over to the next, so the input is never held whole.
///
/// UTF-16's byte order mark is read and dropped, as Python's `utf-16` codec does; a lone surrogate,
/// or an odd byte at the end, is an error at its byte offset in the input.
package struct TextDecoder {
    package let encoding: TextEncoding
    /// UTF-16's byte order, once the first two bytes have told it.
    private var bigEndian: Bool?
    /// Bytes of a UTF-16 code unit or pair that the last chunk cut (at most three).
    private var carried: [UInt8] = []
    /// Bytes of the input taken so far, for the offsets of errors.
    private var consumed: Int64 = 0

    /// Text that is not valid in its encoding, at a byte offset of the input.
    package struct Failure: Error, Equatable {
        /// Where the bad bytes start, 0-based.
        package var offset: Int64
        package var reason: String

        package init(offset: Int64, reason: String) {
            self.offset = offset
            self.reason = reason
        }
        /// `invalid UTF-16 at byte 17: a lone surrogate (0xD800)`, the byte counted from 1.
        package var message: String { "invalid UTF-16 at byte \(offset + 1): \(reason)" }
    }

    package init(_ encoding: TextEncoding) { self.encoding = encoding }

    /// As much of `bytes`, the start of an input, as decodes, in UTF-8: to sniff a format by.
    package static func prefix(of bytes: [UInt8], in encoding: TextEncoding) -> [UInt8] {
        guard encoding != .utf8 else { return bytes }
        var decoder = TextDecoder(encoding)
        var output: [UInt8] = []
        bytes.withUnsafeBytes { raw in
            // What decodes before a failure is kept: the reader that follows reports the failure.
            do throws(Failure) { try decoder.decode(raw, into: &output) } catch {}
        }
        return output
    }

    /// Appends the UTF-8 of `bytes`, the next part of the input, to `output`.
    package mutating func decode(_ bytes: UnsafeRawBufferPointer, into output: inout [UInt8]) throws(Failure) {
        output.reserveCapacity(output.count + bytes.count * (encoding == .utf16 ? 3 : 2) / 2)
        switch encoding {
        case .utf8: output.append(contentsOf: bytes)
        case .latin1:
            for byte in bytes { Self.append(Unicode.Scalar(byte), to: &output) }
        case .windows1252:
            for byte in bytes { Self.append(TextEncoding.windows1252Character(byte), to: &output) }
        case .utf16: try decodeUTF16(bytes, into: &output)
        }
        consumed += Int64(bytes.count)
    }

    /// Ends the input: a code unit or pair left incomplete is an error.
    package func finish() throws(Failure) {
        guard carried.isEmpty else {
            let what = carried.count == 1 ? "an odd byte" : "a high surrogate with no low surrogate after it"
            throw Failure(offset: consumed - Int64(carried.count), reason: "the input ends in \(what)")
        }
    }

    private mutating func decodeUTF16(_ bytes: UnsafeRawBufferPointer, into output: inout [UInt8]) throws(Failure) {
        var units = carried
        units.append(contentsOf: bytes)
        let start = consumed - Int64(carried.count)  // the input offset of units[0]
        var index = 0
        if bigEndian == nil {
            guard units.count >= 2 else {
                carried = units
                return
            }
            bigEndian = units[0] == 0xFE && units[1] == 0xFF
            if bigEndian! || (units[0] == 0xFF && units[1] == 0xFE) { index = 2 }
        }
        let bigEndian = self.bigEndian!
        func unit(at offset: Int) -> UInt16 {
            bigEndian
                ? UInt16(units[offset]) << 8 | UInt16(units[offset + 1])
                : UInt16(units[offset + 1]) << 8 | UInt16(units[offset])
        }
        while index + 1 < units.count {
            let first = unit(at: index)
            switch first {
            case 0xD800...0xDBFF:
                guard index + 3 < units.count else {
                    carried = Array(units[index...])
                    return
                }
                let second = unit(at: index + 2)
                guard (0xDC00...0xDFFF).contains(second) else {
                    throw Failure(offset: start + Int64(index), reason: Self.lone(first))
                }
                let value = 0x10000 + ((UInt32(first) - 0xD800) << 10 | (UInt32(second) - 0xDC00))
                Self.append(Unicode.Scalar(value)!, to: &output)
                index += 4
            case 0xDC00...0xDFFF:
                throw Failure(offset: start + Int64(index), reason: Self.lone(first))
            default:
                if first < 0x80 {
                    output.append(UInt8(first))
                } else {
                    Self.append(Unicode.Scalar(first)!, to: &output)
                }
                index += 2
            }
        }
        carried = Array(units[index...])
    }

    private static func lone(_ unit: UInt16) -> String {
        "a lone surrogate (0x\(String(unit, radix: 16, uppercase: true)))"
    }

    private static func append(_ scalar: Unicode.Scalar, to output: inout [UInt8]) {
        if scalar.value < 0x80 {
            output.append(UInt8(scalar.value))
        } else {
            output.append(contentsOf: UTF8.encode(scalar)!)
        }
    }
}
