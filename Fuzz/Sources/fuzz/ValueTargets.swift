import SpeakEasyModel
import SpeakEasyStorage

/// The Edm lexical parsers and `$filter`.
enum ValueTargets {
    /// The first byte picks an Edm type; whatever parses as it is written back and parses to the same.
    static func edm(_ data: [UInt8]) {
        guard let first = data.first else { return }
        let types: [EdmType] = [.dateTime, .guid, .int64, .int32, .double, .binary, .boolean]
        let type = types[Int(first) % types.count]
        let text = String(decoding: data.dropFirst(), as: UTF8.self)
        if type == .dateTime {
            // The byte parser and the string parser agree.
            let fromBytes = try? EdmDateTime(parsingUTF8: data.dropFirst())
            let fromText = try? EdmDateTime(parsing: text)
            if String(validating: data.dropFirst(), as: UTF8.self) != nil, fromBytes != fromText {
                fatalError(
                    "DateTime '\(text)': bytes gave \(String(describing: fromBytes)), text \(String(describing: fromText))"
                )
            }
        }
        guard let value = EdmValue(lexical: text, as: type) else { return }
        guard let again = EdmValue(lexical: value.description, as: type), again.description == value.description else {
            fatalError("\(type) '\(text)' read as '\(value.description)', which does not read back the same")
        }
    }

    /// A filter that parses is written back as text that parses to the same filter.
    static func filter(_ data: [UInt8]) {
        guard let text = String(validating: data, as: UTF8.self), let filter = try? EntityFilter(parsing: text) else {
            return
        }
        let written = filter.odataText
        guard let again = try? EntityFilter(parsing: written) else {
            fatalError("'\(text)' parsed, but its text '\(written)' does not")
        }
        // NaN is not equal to itself: compare the texts, which carry every value exactly.
        guard again.odataText == written else { fatalError("'\(text)' → '\(written)' → '\(again.odataText)'") }
    }
}
