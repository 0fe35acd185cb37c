/// Where a Table service answers, as its responses name it: the base of `odata.metadata`,
/// `odata.id` and `Location`, and the account that prefixes `odata.type`.
package struct TableEndpoint: Sendable, Equatable {
    /// The service's base URL without a trailing slash: `https://xplat.table.core.windows.net`, or a
    /// path-style `http://127.0.0.1:10002/devstoreaccount1`.
    package var url: String
    /// The account name (`xplat`, `devstoreaccount1`).
    package var account: String

    package init(url: String, account: String) {
        self.url = url.hasSuffix("/") ? String(url.dropLast()) : url
        self.account = account
    }

    /// `<url>/$metadata#<fragment>`.
    func metadataURL(_ fragment: String) -> String { "\(url)/$metadata#\(fragment)" }
}
