import Testing

/// Finds and runs the built `validate` executable.
enum ValidateTool {
    static let executable = SeedTool.locate("validate")

    static func run(_ arguments: [String], in directory: String) async throws -> ProcessResult {
        let path: String
        switch executable {
        case .success(let found): path = found
        case .failure(let error):
            Issue.record(error)
            throw error
        }
        return try await Subprocess.run(path, arguments, directory: directory)
    }
}
