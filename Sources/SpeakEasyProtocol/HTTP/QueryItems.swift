import SpeakEasyCore

/// The decoded query parameters of a request, in the order sent.
///
/// Names and values are percent-decoded (`+` stays `+`, see ``PercentEncoding``). Lookup by name
/// ignores case, as Azure does for the parameters it reads (`comp`, `restype`, the SAS fields) and
/// as Shared Key's canonicalization lower-cases them.
package struct QueryItems: Sendable, Equatable {
    package struct Item: Sendable, Equatable {
        package var name: String
        package var value: String

        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Why a query string cannot be decoded; the server answers 400.
    package struct DecodingError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The parameter as sent (cut short when long, so a huge value cannot flood a log).
        package let parameter: String

        package var description: String {
            "the query parameter '\(parameter)' has a malformed percent-escape or is not UTF-8"
        }
    }

    package let items: [Item]

    package init(_ items: [Item]) { self.items = items }

    /// Splits a raw query (`a=1&b=%2F`, without `?`) on `&`, each part on its first `=` (a part
    /// without one is a name with an empty value); empty parts are skipped.
    package init(query: some StringProtocol) throws(DecodingError) {
        // Read as bytes, once: every request's query passes here.
        var text = String(query)
        let result = text.withUTF8 { bytes -> Result<[Item], DecodingError> in
            var items: [Item] = []
            var start = 0
            while start < bytes.count {
                let end = bytes[start...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.count
                defer { start = end + 1 }
                guard end > start else { continue }
                let part = UnsafeBufferPointer(rebasing: bytes[start..<end])
                let equals = part.firstIndex(of: UInt8(ascii: "="))
                guard
                    let name = PercentEncoding.decode(
                        utf8: UnsafeBufferPointer(rebasing: part[..<(equals ?? part.count)])
                    ),
                    let value = PercentEncoding.decode(
                        utf8: UnsafeBufferPointer(rebasing: part[(equals.map { $0 + 1 } ?? part.count)...])
                    )
                else {
                    let raw = String(decoding: part, as: UTF8.self)
                    return .failure(DecodingError(parameter: raw.count > 100 ? String(raw.prefix(100)) + "…" : raw))
                }
                items.append(Item(name: name, value: value))
            }
            return .success(items)
        }
        items = try result.get()
    }

    /// The first value of a parameter, by case-insensitive name.
    package subscript(name: String) -> String? {
        items.first { $0.name.equalsIgnoringASCIICase(name) }?.value
    }

    /// Every value of a parameter, by case-insensitive name, in the order sent.
    package func values(_ name: String) -> [String] {
        items.filter { $0.name.equalsIgnoringASCIICase(name) }.map(\.value)
    }
}
