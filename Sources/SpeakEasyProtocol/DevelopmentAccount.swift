/// The storage emulator's development account, which `UseDevelopmentStorage=true` names.
///
/// Its key is published by Microsoft (Azurite's README, the SDKs' `UseDevelopmentStorage=true`
/// expansion): it protects nothing and lets unchanged clients talk to a local server.
package enum DevelopmentAccount {
    package static let name = "devstoreaccount1"
    package static let key = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
    package static let host = "127.0.0.1"

    /// The path-style endpoint of a service: `http://127.0.0.1:10002/devstoreaccount1`.
    package static func endpoint(_ service: StorageService, host: String = host, port: Int? = nil) -> String {
        "http://\(host):\(port ?? service.developmentPort)/\(name)"
    }
}
