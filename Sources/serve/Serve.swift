import ArgumentParser
import CLISupport
import SpeakEasyData
import SpeakEasyServer

@main
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a local storage account over Azure Storage's Table and Blob protocol.")

    @Option(help: "The local storage account to serve.")
    var store = "speakeasy.sqlite"

    @Option(help: "The address to listen on (loopback by default).")
    var host = "127.0.0.1"

    @Option(name: .customLong("blob-port"), help: "The Blob service's port; 0 picks a free one.")
    var blobPort = 10000

    @Option(name: .customLong("table-port"), help: "The Table service's port; 0 picks a free one.")
    var tablePort = 10002

    func run() async throws {
        let account = try SQLiteStorageAccount(path: store)
        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.blobPort = blobPort
        configuration.tablePort = tablePort
        if account.accountName != configuration.accountName { configuration.accountAliases = [account.accountName] }
        let accountName = configuration.accountName
        try await StorageServer(account: account, configuration: configuration).run { [host] service, port in
            print("\(service.rawValue): http://\(host):\(port)/\(accountName)")
        }
    }
}
