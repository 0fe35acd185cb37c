/// Findings as a SARIF 2.1.0 log, the format GitHub code scanning (and other static-analysis
/// dashboards) import: upload it with `github/codeql-action/upload-sarif` and each finding becomes
/// an alert on the file and line it names.
///
/// One run whose `tool.driver.rules` are the report's rules, with each result pointing at its rule
/// by id and index. A file location is a `physicalLocation` (the path as a URI reference and the
/// line); a place in a storage account is a `logicalLocation` whose fully qualified name is the
/// table/partition/row (or container/blob) path, and its `physicalLocation` is the account itself
/// (the local account's file, an Azure account's table endpoint): GitHub code scanning shows no
/// result without an `artifactLocation.uri`. Related locations carry ids
/// from 1 and their description as the message. Valid against the OASIS schema kept in
/// `Tests/Fixtures/schemas`.
public struct SARIFReportWriter: ReportWriter, Sendable {
    /// The `$schema` the log declares: the OASIS 2.1.0 schema with Errata 01, the one the tests use.
    public static let schemaURI =
        "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    /// `tool.driver.name`. GitHub code scanning groups alerts by it, so it never changes.
    public static let toolName = "speakeasy-validate"

    /// `tool.driver.version`: the version `validate --version` prints.
    public var toolVersion: String

    /// A writer that names `toolVersion` as the tool's version.
    public init(toolVersion: String) {
        self.toolVersion = toolVersion
    }

    /// The SARIF log, one run.
    public func render(_ report: ValidationReport) -> [UInt8] {
        let groups = report.ruleGroups
        var results: [ReportJSON] = []
        for (index, group) in groups.enumerated() {
            for finding in group.findings {
                results.append(result(finding, ruleIndex: index, store: report.storeAddress))
            }
        }
        let driver: ReportJSON = .object([
            ("name", .string(Self.toolName)),
            ("version", .string(toolVersion)),
            ("rules", .array(groups.map { rule($0.rule) })),
        ])
        let run: ReportJSON = .object([
            ("tool", .object([("driver", driver)])),
            ("invocations", .array([invocation(report)])),
            ("results", .array(results)),
        ])
        let log: ReportJSON = .object([
            ("$schema", .string(Self.schemaURI)),
            ("version", .string("2.1.0")),
            ("runs", .array([run])),
        ])
        return log.rendered()
    }

    private func rule(_ rule: RuleDescriptor) -> ReportJSON {
        var members: [(String, ReportJSON)] = [("id", .string(rule.id))]
        if !rule.summary.isEmpty {
            members.append(("shortDescription", .object([("text", .string(rule.summary))])))
        }
        members.append(("defaultConfiguration", .object([("level", .string(Self.level(rule.severity)))])))
        return .object(members)
    }

    private func invocation(_ report: ValidationReport) -> ReportJSON {
        // The checks ran to the end (or to --max-errors): findings are results, not a failed execution.
        var members: [(String, ReportJSON)] = [("executionSuccessful", .bool(true))]
        var notifications: [ReportJSON] = []
        if report.truncated {
            notifications.append(
                .object([
                    ("level", .string("warning")),
                    ("message", .object([("text", .string(report.truncationNote))])),
                ])
            )
        }
        if let notRun = report.notRunNote {
            notifications.append(
                .object([("level", .string("note")), ("message", .object([("text", .string(notRun))]))])
            )
        }
        if !notifications.isEmpty { members.append(("toolExecutionNotifications", .array(notifications))) }
        members.append(
            (
                "properties",
                .object([
                    ("inputs", .array(report.inputs.map { .string($0) })),
                    ("entitiesChecked", .integer(report.entitiesChecked)),
                    ("truncated", .bool(report.truncated)),
                ])
            )
        )
        return .object(members)
    }

    private func result(_ finding: Finding, ruleIndex: Int, store: String?) -> ReportJSON {
        var members: [(String, ReportJSON)] = [
            ("ruleId", .string(finding.rule)),
            ("ruleIndex", .integer(ruleIndex)),
            ("level", .string(Self.level(finding.severity))),
            ("message", .object([("text", .string(finding.message))])),
            ("locations", .array([.object(location(finding.location, store: store))])),
        ]
        if !finding.related.isEmpty {
            let related = finding.related.enumerated().map { index, place -> ReportJSON in
                .object(
                    [("id", .integer(index + 1))] + location(place, store: store) + [
                        ("message", .object([("text", .string(place.description))]))
                    ]
                )
            }
            members.append(("relatedLocations", .array(related)))
        }
        return .object(members)
    }

    /// The members of a SARIF `location` object for one place.
    private func location(_ place: FindingLocation, store: String?) -> [(String, ReportJSON)] {
        // A store's place: the account as the artifact, the entity or blob as the logical location.
        let account: [(String, ReportJSON)] =
            store.map {
                [("physicalLocation", .object([("artifactLocation", .object([("uri", .string(Self.uri($0)))]))]))]
            } ?? []
        switch place.place {
        case .file(let path, let line):
            var physical: [(String, ReportJSON)] = [
                ("artifactLocation", .object([("uri", .string(SARIFArtifactURI.reference(forPath: path)))]))
            ]
            if line > 0 { physical.append(("region", .object([("startLine", .integer(line))]))) }
            var members: [(String, ReportJSON)] = [("physicalLocation", .object(physical))]
            // The keys say which entity the line holds, for readers that index by entity.
            let keys = [place.partitionKey, place.rowKey].compactMap { $0 }
            if !keys.isEmpty {
                members.append(
                    (
                        "logicalLocations",
                        .array([logical(name: keys.last!, fullyQualifiedName: keys.joined(separator: "/"))])
                    )
                )
            }
            return members
        case .table(let table):
            let name = place.rowKey ?? place.partitionKey ?? table
            return account + [
                ("logicalLocations", .array([logical(name: name, fullyQualifiedName: place.description)]))
            ]
        case .container(let container, let blob):
            return account + [
                ("logicalLocations", .array([logical(name: blob ?? container, fullyQualifiedName: place.description)]))
            ]
        }
    }

    /// A store's address as a URI: an endpoint is one already, a path becomes a URI reference.
    private static func uri(_ address: String) -> String {
        address.contains("://") ? address : SARIFArtifactURI.reference(forPath: address)
    }

    private func logical(name: String, fullyQualifiedName: String) -> ReportJSON {
        // "resource" is SARIF's well-known kind for a named thing that is neither code nor a file.
        .object([
            ("name", .string(name)), ("fullyQualifiedName", .string(fullyQualifiedName)), ("kind", .string("resource")),
        ])
    }

    private static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        }
    }
}
