import Foundation
import SpeakEasyFormats
import SpeakEasyModel
import SpeakEasyValidation

/// The validate rules over whatever a file of any format holds: `FileValidation.run`, the path of
/// `validate FILE`, with every rule on. Two oracles beyond "no crash, bounded time and memory":
/// - **Two paths, one verdict.** Events in the contract's plain shape are checked without building
///   the entity (`plainEvents`, the default); checked as entities, the findings are the same, in
///   the same order, or the same error stops both.
/// - **Speakers may come before, between or after the events that name them.** The entities checked
///   with all speakers first, or last (each group in file order, so that of two speakers with one key
///   the first stays first), give the same findings as in file order, at the same places.
enum ValidateTarget {
    static let formats: [DataFormat] = [.atom, .json, .ndjson, .csv]

    /// The first byte chooses the format; the rest is the file.
    static func run(_ data: [UInt8]) {
        guard data.count >= 2 else { return }
        let format = formats[Int(data[0]) % formats.count]
        let bytes = Array(data[1...])
        let path = NSTemporaryDirectory() + "speakeasy-fuzz-validate-\(getpid())"
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            fatalError("cannot write \(path)")
        }
        defer { unlink(path) }

        let plain = validate(path, format: format, plainEvents: true)
        let whole = validate(path, format: format, plainEvents: false)
        switch (plain, whole) {
        case (.success(let plain), .success(let whole)):
            guard plain.findings == whole.findings else {
                let index =
                    zip(plain.findings, whole.findings).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                    ?? min(plain.findings.count, whole.findings.count)
                fatalError(
                    "\(format): plain events and entities differ at finding \(index) of \(plain.findings.count) and \(whole.findings.count): "
                        + "\(describe(plain.findings, index)) against \(describe(whole.findings, index))"
                )
            }
        case (.failure(let plain), .failure(let whole)):
            guard "\(plain)" == "\(whole)" else {
                fatalError("\(format): plain events stopped at \(plain), entities at \(whole)")
            }
            return
        default:
            fatalError("\(format): plain events \(outcome(plain)), entities \(outcome(whole))")
        }

        let read = ReaderTargets.read(bytes, format: format)
        guard read.error == nil else { return }
        let numbered = Array(read.entities.enumerated())
        let speakers = numbered.filter { $0.element.partitionKey == DataContract.speakersPartition }
        let others = numbered.filter { $0.element.partitionKey != DataContract.speakersPartition }
        let inFileOrder = Set(check(numbered))
        for (order, entities) in [("speakers first", speakers + others), ("speakers last", others + speakers)] {
            let findings = Set(check(entities))
            guard findings == inFileOrder else {
                let missing = inFileOrder.subtracting(findings).map(describe)
                let extra = findings.subtracting(inFileOrder).map(describe)
                fatalError("\(format), \(order): missing \(missing), more \(extra), against file order")
            }
        }
    }

    private static func validate(
        _ path: String,
        format: DataFormat,
        plainEvents: Bool
    ) -> Result<ValidationReport, any Error> {
        blocking {
            try await FileValidation.run(
                [path],
                options: ValidationOptions(),
                readOptions: EntityFiles.ReadOptions(format: format),
                plainEvents: plainEvents
            )
        }
    }

    /// The findings of one validator over the entities in the order given, each at its place in the file.
    private static func check(_ entities: some Sequence<(offset: Int, element: Entity)>) -> [Finding] {
        var validator = Validator(options: ValidationOptions())
        validator.begin(.file("input"))
        for (index, entity) in entities { validator.check(entity, line: index + 1) }
        validator.finishReferences()
        return validator.findings
    }

    private static func describe(_ findings: [Finding], _ index: Int) -> String {
        index < findings.count ? describe(findings[index]) : "none"
    }

    private static func describe(_ finding: Finding) -> String {
        "\(finding.rule) at \(finding.location): \(finding.message)"
    }

    private static func outcome(_ result: Result<ValidationReport, any Error>) -> String {
        switch result {
        case .success(let report): "gave \(report.findings.count) findings"
        case .failure(let error): "stopped at \(error)"
        }
    }
}
