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
        var items: [Item] = []
        for part in query.split(separator: "&", omittingEmptySubsequences: true) {
            let equals = part.firstIndex(of: "=")
            let rawName = equals.map { part[..<$0] } ?? part[...]
            let rawValue = equals.map { part[part.index(after: $0)...] } ?? ""
            guard let name = PercentEncoding.decode(rawName), let value = PercentEncoding.decode(rawValue) else {
                throw DecodingError(parameter: part.count > 100 ? String(part.prefix(100)) + "…" : String(part))
            }
            items.append(Item(name: name, value: value))
        }
        self.items = items
    }

    /// The first value of a parameter, by case-insensitive name.
    package subscript(name: String) -> String? {
        let lowered = name.lowercased()
        return items.first { $0.name.lowercased() == lowered }?.value
    }

    /// Every value of a parameter, by case-insensitive name, in the order sent.
    package func values(_ name: String) -> [String] {
        let lowered = name.lowercased()
        return items.filter { $0.name.lowercased() == lowered }.map(\.value)
    }
}
