extension ValidationReport {
    /// One rule and the findings it produced, in the order they were found.
    struct RuleGroup {
        var rule: RuleDescriptor
        var findings: [Finding]
    }

    /// The report's rules in their order, each with its findings, followed by any rule that produced
    /// findings without being described.
    ///
    /// Reports index findings by rule (a JUnit suite per rule, SARIF's `ruleIndex`), so a finding
    /// whose rule the checks forgot to describe still needs a rule to hang from rather than being
    /// dropped; it gets one made from the finding itself, with no summary.
    var ruleGroups: [RuleGroup] {
        var groups = rules.map { RuleGroup(rule: $0, findings: []) }
        var indexByID: [String: Int] = [:]
        for (index, rule) in rules.enumerated() where indexByID[rule.id] == nil {
            indexByID[rule.id] = index
        }
        for finding in findings {
            if let index = indexByID[finding.rule] {
                groups[index].findings.append(finding)
            } else {
                indexByID[finding.rule] = groups.count
                groups.append(
                    RuleGroup(
                        rule: RuleDescriptor(id: finding.rule, severity: finding.severity, summary: ""),
                        findings: [finding]
                    )
                )
            }
        }
        return groups
    }
}
