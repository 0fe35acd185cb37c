/// `seed --photo-name`: which file of `--photos DIR` is a speaker's photo, as a file name with
/// placeholders: `{blob}` (the blob name the speaker's ImageUrl gives, the default), `{Name}` and
/// `{RowKey}`. The photo is uploaded under the ImageUrl's blob name whatever file it came from, so
/// the speaker's ImageUrl finds it.
package struct PhotoNameRule: Sendable, Equatable {
    package static let placeholders = ["{blob}", "{Name}", "{RowKey}"]
    package static let byBlobName = PhotoNameRule(template: "{blob}")

    package let template: String

    private init(template: String) { self.template = template }

    /// Checks a rule: at least one placeholder, no unknown one, no directory.
    package init(parsing template: String) throws(PhotoNameRuleError) {
        guard !template.contains("/") else {
            throw PhotoNameRuleError("'\(template)' names a directory; it is a file name inside --photos")
        }
        var rest = template[...]
        var found = false
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw PhotoNameRuleError("'\(template)' has a '{' without its '}'")
            }
            let placeholder = String(rest[open...close])
            guard Self.placeholders.contains(placeholder) else {
                throw PhotoNameRuleError(
                    "'\(template)' has \(placeholder); the placeholders are \(Self.placeholders.joined(separator: ", "))"
                )
            }
            found = true
            rest = rest[rest.index(after: close)...]
        }
        guard found else {
            throw PhotoNameRuleError(
                "'\(template)' has no placeholder (\(Self.placeholders.joined(separator: ", "))): every speaker would get one file"
            )
        }
        self.template = template
    }

    /// The file name for a speaker; nil when the rule needs a Name the speaker does not have.
    package func fileName(blob: String, name: String?, rowKey: String) -> String? {
        if template.contains("{Name}"), name == nil { return nil }
        return template.replacing("{blob}", with: blob).replacing("{Name}", with: name ?? "").replacing(
            "{RowKey}",
            with: rowKey
        )
    }
}

/// A `--photo-name` rule that cannot be used (a usage error).
package struct PhotoNameRuleError: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}
