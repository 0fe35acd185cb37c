import ArgumentParser
import CLISupport
import SpeakEasyData
import SpeakEasyServer

@main
struct Serve: AsyncParsableCommand {
    // Swift's tasks run on Swift's own pool: each request's task asks for its connection's event
    // loop itself (ServiceConnectionHandler), rather than NIO taking over every task of the process.
    static func main() async { await ToolMain.run(Self.self, exitStatus: Self.exitStatus) }

    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a local storage account over Azure Storage's Table and Blob protocol.",
        // As the other tools' usage lines: the parser lists every option of a tool with 12 or fewer.
        usage: "serve <options>",
        discussion: """
            The store (--store, created if missing) is served as an Azure Storage account on loopback, \
            on Azurite's ports and path-style URLs: Blob on http://127.0.0.1:10000/devstoreaccount1, \
            Table on http://127.0.0.1:10002/devstoreaccount1. An unchanged Azure client finds it with \
            the connection string UseDevelopmentStorage=true; the endpoints are printed on start. \
            The photo URLs that seed writes (http://127.0.0.1:10000/speakeasy/…) open too: the \
            local account's own name is served as a second name of the same account.

            Production-style URLs work too, with the account as the host's first label: an app that \
            hard-codes http://<account>.table.core.windows.net/ reaches serve unchanged once a \
            hosts-file entry points that name here (serve --account <name> --key <key>, the app's own).

            A read-only view of the account for a browser is on http://127.0.0.1:10003/ (--ui-port; \
            --no-ui serves none): tables, partitions with their entity counts, entities a page at a \
            time with a $filter box, each entity's properties with their types, the containers' photos, \
            and validate's findings on demand. It is on loopback only, whatever --host says, needs no key \
            and shows none, and changes nothing.

            Requests are signed with the account key (Shared Key, Shared Key Lite for tables) or carry \
            a SAS token; without either, only the blobs of containers with public access can be read. \
            A line per request goes to stderr (method, path, status, time; SAS signatures masked). \
            SIGINT or SIGTERM stops the server once the requests in flight are answered.

            Blob features not supported (answered with 501 NotImplemented naming the feature): \
            \(UnclaimedBlobFeature.names.joined(separator: ", ")).

            Faults for testing a client's retries (--faults): rules separated by commas, each an \
            action (503, 500, drop before the request is read, lose the reply after it is carried \
            out, delay=MS) and conditions after '/' (every=N, first=N, path=PREFIX, batch).

            Examples:
              serve                                 # speakeasy.sqlite as devstoreaccount1
              serve --store demo.sqlite --table-port 0 --blob-port 0 --ui-port 0
              serve --faults '503/every=3/batch,drop/first=1'
              serve --faults 'lose/every=7/batch'   # a retry must not insert twice
              curl http://127.0.0.1:10000/speakeasy/speakers/BTubalinal.jpg -o photo.jpg
            """,
        version: ToolVersion.current
    )

    /// The last paragraph of `--help`.
    static let exitStatus = ExitStatusHelp.text(
        output: "the store cannot be created, or is read-only",
        interrupted: false
    )

    // Its own option, not StoreOption: serve serves a local account file only (an account elsewhere
    // would be proxied to itself), and sends no requests that --parallel could bound.
    @Option(
        help: ArgumentHelp(
            "The local account file to serve; created if missing. (default: \(StoreOption.defaultPath))",
            valueName: "file"
        )
    )
    var store: String?

    @Option(help: ArgumentHelp("The address to listen on.", valueName: "address"))
    var host = DevelopmentAccount.host

    // Unconditional, so `-1` is read as its value (and refused as such), not as an option.
    @Option(
        name: .customLong("blob-port"),
        parsing: .unconditional,
        help: ArgumentHelp("The Blob service's port; 0 picks a free one.", valueName: "port")
    )
    var blobPort = StorageService.blob.developmentPort

    @Option(
        name: .customLong("table-port"),
        parsing: .unconditional,
        help: ArgumentHelp("The Table service's port; 0 picks a free one.", valueName: "port")
    )
    var tablePort = StorageService.table.developmentPort

    @Option(
        name: .customLong("ui-port"),
        parsing: .unconditional,
        help: ArgumentHelp("The browser view's port on 127.0.0.1; 0 picks a free one.", valueName: "port")
    )
    var uiPort = AccountView.developmentPort

    @Flag(name: .customLong("no-ui"), help: "Serve no browser view.")
    var noUI = false

    @Option(help: ArgumentHelp("The account name to serve the store under.", valueName: "name"))
    var account = DevelopmentAccount.name

    @Option(
        help: ArgumentHelp(
            "The account key, base64. (default: the development account's published key)",
            valueName: "base64"
        )
    )
    var key: String?

    @Option(
        name: .customLong("page-size"),
        parsing: .unconditional,
        help: ArgumentHelp("Entities a query page holds at most (Azure: 1000).", valueName: "n")
    )
    var pageSize = 1000

    @Option(
        help: ArgumentHelp(
            "Faults to answer on purpose, for testing a client's retries (see above).",
            valueName: "rules"
        )
    )
    var faults: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Milliseconds added to every reply.", valueName: "ms"))
    var latency = 0

    @Flag(name: [.short, .long], help: "Log nothing per request.")
    var quiet = false

    // Not an option: without it, the parser would answer `--port` with "did you mean '--host'?".
    @Option(parsing: .unconditional, help: .private)
    var port: String?

    func validate() throws {
        if port != nil {
            throw ValidationError(
                "serve has no --port: it listens on --table-port (default \(StorageService.table.developmentPort)) and --blob-port (default \(StorageService.blob.developmentPort))"
            )
        }
        if let store {
            // Before the value is read: 'azure' would otherwise first ask for its variable, to be
            // refused once it is set.
            guard StorageLocation.namesLocalFile(store), case .local = try StoreOption.location(of: store) else {
                // The value is not echoed: a connection string may hold a key.
                throw ValidationError(
                    "--store: serve serves a local account file, not 'dev', 'azure' or a connection string"
                )
            }
        }
        for (name, port) in [("--blob-port", blobPort), ("--table-port", tablePort), ("--ui-port", uiPort)]
        where !(0...65535).contains(port) {
            throw ValidationError("\(name) \(port): a port is 0 to 65535")
        }
        guard (1...1000).contains(pageSize) else { throw ValidationError("--page-size \(pageSize): 1 to 1000") }
        guard (0...600_000).contains(latency) else { throw ValidationError("--latency \(latency): 0 to 600000 ms") }
        guard let decoded = Base64.decode(accountKey), !decoded.isEmpty else {
            throw ValidationError("--key: not base64 (give the account key as Azure shows it)")
        }
        if let faults {
            do { _ = try FaultPlan(parsing: faults) } catch { throw ValidationError("--faults: \(error)") }
        }
    }

    var accountKey: String { key ?? DevelopmentAccount.key }

    func run() async throws {
        // A query page is a reply of about 1.6 MB, assembled from a page of stored rows as large:
        // memory glibc gave back would come back zeroed, a page fault every 4 KiB (FreedMemory).
        FreedMemory.keepForReuse()
        do {
            let location = StorageLocation.local(path: self.store ?? StoreOption.defaultPath)
            var configuration = ServerConfiguration()
            configuration.host = host
            configuration.blobPort = blobPort
            configuration.tablePort = tablePort
            configuration.uiPort = noUI ? nil : uiPort
            configuration.accountName = account
            configuration.accountKey = accountKey
            configuration.pageSize = pageSize
            configuration.latencyMilliseconds = latency
            configuration.logRequests = !quiet
            if let faults { configuration.faults = try FaultPlan(parsing: faults) }
            if location.accountName != account { configuration.accountAliases = [location.accountName] }
            let host = host
            let accountName = account
            var store: (any StorageAccount)?
            // The store is opened (created if missing) only once every port is bound: a port that
            // cannot be listened on leaves it as it was.
            try await StorageServer.run(
                configuration: configuration,
                onListening: { served, port in
                    // On stdout, one line a port, so that a script can read the ports it got: the
                    // services' first, then the browser view's.
                    let url =
                        switch served {
                        case .service: "http://\(host):\(port)/\(accountName)"
                        case .ui: "http://\(AccountView.host):\(port)/"
                        }
                    Terminal.writeOutput("\(served.name) \(url)\n")
                },
                server: {
                    let opened = try location.open(readOnly: false)
                    store = opened
                    return try StorageServer(account: opened, configuration: configuration)
                }
            )
            try await store?.flush()
        } catch {
            throw ToolExit.report(error, tool: "serve")
        }
    }
}
