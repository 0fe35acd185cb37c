/// The name and addresses of a local account, one SQLite file. A file has no name or address of its
/// own: these are what `serve` answers for a local store beside its own account (`devstoreaccount1`),
/// on Azurite's ports and path style, so that the URLs `seed` writes open while it runs, and what an
/// export names as the address of entities read from files.
package enum LocalAccount {
    package static let name = "speakeasy"
    /// Where its blobs are served: `serve`'s Blob port on loopback, ending in `/`.
    package static let blobEndpoint = "http://127.0.0.1:10000/\(name)/"
    /// Where its tables are served: `serve`'s Table port on loopback, ending in `/`.
    package static let tableEndpoint = "http://127.0.0.1:10002/\(name)/"
}
