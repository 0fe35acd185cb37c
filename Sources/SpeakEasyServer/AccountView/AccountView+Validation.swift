import HTTPTypes
import NIOCore
import SpeakEasyModel
import SpeakEasyValidation

/// `/validate`: the last `validate` run on the account (GET), and a new run (POST), each finding
/// linked to the entity, table or container it is about.
extension AccountView {
    /// The findings a page lists at most: the counts above them are the whole run's.
    static let findingsShown = 1000

    struct FindingRow {
        var rule: String
        var severity: String
        var place: String
        var href: String?
        var message: String
    }

    struct ReportSummary {
        var ranAt: String
        var entities: Int
        var errors: Int
        var warnings: Int
        var truncated: Bool
        var shown: Int
        var total: Int
        /// Stored: the templates read values by reflection, which sees no computed property.
        var hasFindings: Bool
        var findings: [FindingRow]
    }

    /// POST runs validation (it reads only), then sends the browser to the GET page, so that a reload
    /// shows the result rather than running it again.
    func runValidation() async -> ServiceResponse {
        _ = await server.validationRuns.run(account)
        var response = AccountViewPage.reply(.seeOther, contentType: "text/plain; charset=utf-8", body: .init())
        response.headers[.location] = "/validate"
        return response
    }

    func validationPage() -> ServiceResponse {
        var context: [String: Any] = ["ran": false]
        if let run = server.validationRuns.last {
            context["ran"] = true
            switch run.result {
            case .success(let report): context["report"] = Self.summary(report, ranAt: run.finished.description)
            case .failure(let error): context["failure"] = "validate could not run: \(error)"
            }
        }
        return AccountViewPage.render(.validation, context, frame: AccountViewPage.Frame(title: "Validation"))
    }

    static func summary(_ report: ValidationReport, ranAt: String) -> ReportSummary {
        let shown = report.findings.prefix(findingsShown)
        return ReportSummary(
            ranAt: ranAt,
            entities: report.entitiesChecked,
            errors: report.errorCount,
            warnings: report.warningCount,
            truncated: shown.count < report.findings.count,
            shown: shown.count,
            total: report.findings.count,
            hasFindings: !shown.isEmpty,
            findings: shown.map { finding in
                FindingRow(
                    rule: finding.rule,
                    severity: finding.severity.rawValue,
                    place: finding.location.description,
                    href: link(finding.location),
                    message: finding.message
                )
            }
        )
    }

    /// The page a finding's place is on: its entity, its table, or its container.
    static func link(_ location: FindingLocation) -> String? {
        switch location.place {
        case .table(let table):
            if let partitionKey = location.partitionKey, let rowKey = location.rowKey {
                return AccountViewLink.entity(table: table, partitionKey: partitionKey, rowKey: rowKey)
            }
            if let partitionKey = location.partitionKey {
                return AccountViewLink.entities(table: table, partition: partitionKey)
            }
            return AccountViewLink.table(table)
        case .container(let container, _): return AccountViewLink.container(container)
        case .file: return nil
        }
    }
}
