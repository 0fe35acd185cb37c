import SpeakEasyCore

/// The browser view's addresses: a route and its query, each name and value percent-encoded
/// (``PercentEncoding/encodeQueryComponent(_:)``), so that any key (`&`, `#`, `+`, a quote, an
/// emoji) comes back as it was. The template then escapes the link like any other text.
enum AccountViewLink {
    static func to(_ route: String, _ parameters: [(String, String?)]) -> String {
        let query = parameters.compactMap { name, value in
            value.map {
                PercentEncoding.encodeQueryComponent(name) + "=" + PercentEncoding.encodeQueryComponent($0)
            }
        }
        return query.isEmpty ? route : route + "?" + query.joined(separator: "&")
    }

    static func table(_ name: String, after: String? = nil) -> String {
        to("/table", [("name", name), ("after", after)])
    }

    static func entities(
        table: String,
        partition: String?,
        filter: String? = nil,
        from: [(name: String, value: String)] = []
    ) -> String {
        to(
            "/entities",
            [("table", table), ("partition", partition), ("$filter", filter)] + from.map { ($0.name, $0.value) }
        )
    }

    static func entity(table: String, partitionKey: String, rowKey: String) -> String {
        to("/entity", [("table", table), ("PartitionKey", partitionKey), ("RowKey", rowKey)])
    }

    static func container(_ name: String, marker: String? = nil) -> String {
        to("/container", [("name", name), ("marker", marker)])
    }

    static func blob(container: String, name: String) -> String {
        to("/blob", [("container", container), ("name", name)])
    }
}
