import Foundation
import SpeakEasyData
import TestServer
import TestSupport
import Testing

/// `serve`'s Blob service judged by the Azure CLI 2.91 (`azure-cli` from PyPI, in `.venv-azcli`):
/// container permissions and stored access policies (Set/Get Container ACL) and metadata round
/// trips, each command given `--connection-string` as a user gives it.
@Suite(
    "serve judged by the Azure CLI",
    .enabled(if: CommandLineClient.azureCLI.enabled, CommandLineClient.azureCLI.howToEnable)
)
struct AzureCLITests {
    @Test("set-permission --public-access, stored access policies, blob and container metadata")
    func permissionsAndMetadata() async throws {
        try await withRunningServer { server in
            try await offPool {
                try withScratchDirectory { scratch in
                    let endpoint = "http://127.0.0.1:\(server.port(.blob))/\(DevelopmentAccount.name)"
                    let connection =
                        "DefaultEndpointsProtocol=http;AccountName=\(DevelopmentAccount.name);AccountKey=\(DevelopmentAccount.key);BlobEndpoint=\(endpoint);"
                    // Its own configuration directory: nothing read from or written to the user's.
                    let environment = [
                        "AZURE_CONFIG_DIR": scratch + "/azure", "AZURE_CORE_COLLECT_TELEMETRY": "false",
                        "AZURE_CORE_NO_COLOR": "true",
                        "AZURE_CORE_ONLY_SHOW_ERRORS": "true",
                    ]
                    func az(_ arguments: [String]) throws -> Any? {
                        let output = try CommandLineClient.azureCLI.run(
                            ["storage"] + arguments + ["--connection-string", connection, "--output", "json"],
                            environment: environment
                        )
                        let trimmed = output.trimmingCharacters(in: .whitespacesAndNewlines)
                        return trimmed.isEmpty
                            ? nil
                            : try JSONSerialization.jsonObject(with: Data(trimmed.utf8), options: [.fragmentsAllowed])
                    }

                    _ = try az(["container", "create", "--name", "photos", "--metadata", "owner=speakers"])
                    _ = try az(["container", "set-permission", "--name", "photos", "--public-access", "container"])
                    let permission = try az(["container", "show-permission", "--name", "photos"]) as? [String: Any]
                    #expect(permission?["publicAccess"] as? String == "container")
                    let shown = try az(["container", "show", "--name", "photos"]) as? [String: Any]
                    #expect(shown?["metadata"] as? [String: String] == ["owner": "speakers"])
                    #expect((shown?["properties"] as? [String: Any])?["publicAccess"] as? String == "container")

                    _ = try az([
                        "container", "metadata", "update", "--name", "photos", "--metadata", "owner=events",
                        "year=2024",
                    ])
                    #expect(
                        try az(["container", "metadata", "show", "--name", "photos"]) as? [String: String] == [
                            "owner": "events", "year": "2024",
                        ]
                    )

                    let file = scratch + "/ada.txt"
                    try Data("Ada Lovelace".utf8).write(to: URL(fileURLWithPath: file))
                    _ = try az([
                        "blob", "upload", "--container-name", "photos", "--name", "speakers/ada.txt", "--file", file,
                        "--metadata", "source=cli",
                    ])
                    #expect(
                        try az(["blob", "metadata", "show", "--container-name", "photos", "--name", "speakers/ada.txt"])
                            as? [String: String] == ["source": "cli"]
                    )
                    _ = try az([
                        "blob", "metadata", "update", "--container-name", "photos", "--name", "speakers/ada.txt",
                        "--metadata", "rating=5", "mtime=1700000000",
                    ])
                    #expect(
                        try az(["blob", "metadata", "show", "--container-name", "photos", "--name", "speakers/ada.txt"])
                            as? [String: String]
                            == ["rating": "5", "mtime": "1700000000"]
                    )
                    _ = try az([
                        "blob", "update", "--container-name", "photos", "--name", "speakers/ada.txt", "--content-type",
                        "text/plain", "--content-cache-control", "max-age=60",
                    ])
                    let blob =
                        try az(["blob", "show", "--container-name", "photos", "--name", "speakers/ada.txt"])
                        as? [String: Any]
                    let settings = (blob?["properties"] as? [String: Any])?["contentSettings"] as? [String: Any]
                    #expect(settings?["contentType"] as? String == "text/plain")
                    #expect(settings?["cacheControl"] as? String == "max-age=60")
                    #expect(blob?["metadata"] as? [String: String] == ["rating": "5", "mtime": "1700000000"])

                    _ = try az([
                        "container", "policy", "create", "--container-name", "photos", "--name", "readers",
                        "--permissions", "r", "--expiry", "2099-01-01T00:00Z",
                    ])
                    let policies =
                        try az(["container", "policy", "list", "--container-name", "photos"]) as? [String: Any]
                    #expect((policies?["readers"] as? [String: Any])?["permission"] as? String == "r")
                    // Set Container ACL replaces the public access level too; the CLI reads the ACL first and
                    // sends the level again with the new policy, so it stays.
                    let after = try az(["container", "show-permission", "--name", "photos"]) as? [String: Any]
                    #expect(after?["publicAccess"] as? String == "container")
                    _ = try az(["container", "set-permission", "--name", "photos", "--public-access", "off"])
                    #expect(
                        (try az(["container", "show-permission", "--name", "photos"]) as? [String: Any])?[
                            "publicAccess"
                        ] as? String == "off"
                    )
                }
            }
        }
    }
}
