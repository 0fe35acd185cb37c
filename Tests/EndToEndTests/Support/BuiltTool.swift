import Testing

/// Finds and runs one of the package's built executables (`export`, `validate`).
struct BuiltTool: Sendable {
    let executable: Result<String, SeedTool.LocateError>

    init(_ name: String) { executable = SeedTool.locate(name) }

    func run(
        _ arguments: [String],
        in directory: String,
        environment: [String: String] = [:]
    ) async throws -> ProcessResult {
        let path: String
        switch executable {
        case .success(let found): path = found
        case .failure(let error):
            Issue.record(error)
            throw error
        }
        return try await Subprocess.run(path, arguments, directory: directory, environment: environment)
    }
}

extension BuiltTool {
    static let export = BuiltTool("export")
    static let validate = BuiltTool("validate")
    static let serve = BuiltTool("serve")
}
