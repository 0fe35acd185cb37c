import SpeakEasyFormats

/// A JSON document for a report, built as a value and written as indented UTF-8.
///
/// Reports are small next to the data, so building a tree first costs nothing that matters, and
/// keeps the writers declarative. Objects keep their keys in the order given (JSONSerialization
/// would not), so output is stable and diffs well; strings go through the entity writer's escaper,
/// which escapes quotes, backslashes and every control character and leaves other text, non-BMP
/// included, as UTF-8.
indirect enum ReportJSON {
    case string(String)
    case integer(Int)
    case bool(Bool)
    case array([ReportJSON])
    case object([(String, ReportJSON)])

    /// The document with two-space indentation and a final newline.
    func rendered() -> [UInt8] {
        var out: [UInt8] = []
        write(to: &out, indent: 0)
        out.append(UInt8(ascii: "\n"))
        return out
    }

    private func write(to out: inout [UInt8], indent: Int) {
        switch self {
        case .string(let text):
            JSONEntityWriter.appendString(text, to: &out)
        case .integer(let value):
            out.append(contentsOf: String(value).utf8)
        case .bool(let value):
            out.append(contentsOf: (value ? "true" : "false").utf8)
        case .array(let items):
            guard !items.isEmpty else { return out.append(contentsOf: "[]".utf8) }
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                newline(&out, indent + 1)
                item.write(to: &out, indent: indent + 1)
            }
            newline(&out, indent)
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            guard !members.isEmpty else { return out.append(contentsOf: "{}".utf8) }
            out.append(UInt8(ascii: "{"))
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                newline(&out, indent + 1)
                JSONEntityWriter.appendString(key, to: &out)
                out.append(contentsOf: ": ".utf8)
                value.write(to: &out, indent: indent + 1)
            }
            newline(&out, indent)
            out.append(UInt8(ascii: "}"))
        }
    }

    private func newline(_ out: inout [UInt8], _ indent: Int) {
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }
}
