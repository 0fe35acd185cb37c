/// How much OData metadata Azure Table JSON carries (the `odata=` parameter of `Accept`).
package enum JSONMetadata: String, CaseIterable, Sendable {
    /// No annotations: Int64, DateTime, Guid and Binary come back as plain strings (lossy).
    case none = "nometadata"
    /// `Prop@odata.type` where JSON cannot tell the type; the lossless default.
    case minimal = "minimalmetadata"
    /// Minimal plus per-entity `odata.type`/`odata.id`/`odata.editLink` and `Timestamp@odata.type`.
    case full = "fullmetadata"
}
