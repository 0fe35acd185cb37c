/// The resource a request reaches, as the server routed it: what a service SAS must cover, and
/// (for a blob service SAS) part of what its signature covers.
///
/// Names are decoded (`photos`, `speakers/ada.jpg`), as the SDKs sign them. A `$batch` reaches the
/// table its operations name (a batch is one table's), so the server reads that before asking.
package enum SASTarget: Sendable, Hashable {
    /// The account itself: list tables or containers, service properties.
    case service
    case table(String)
    case container(String)
    case blob(container: String, name: String)
}
