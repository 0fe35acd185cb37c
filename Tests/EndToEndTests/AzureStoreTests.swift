import Foundation
import SpeakEasyData
import SpeakEasyServer
import TestServer
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The tools on an account reached over Azure's REST protocol: `serve` in this process, over HTTP on
/// loopback, named by a connection string as a user names Azure or Azurite.
@Suite("the tools on an Azure account (serve over HTTP)")
struct AzureStoreTests {
    static let seedArguments = ["--seed", "7", "--events", "20000", "--from", "2026-01-01", "--cutoff", "2027-12-31"]

    /// What a seed run left in a server's store, compared by content (the store's Timestamp and
    /// ETag differ from run to run), and the requests it reported.
    struct Outcome {
        var entities: [Entity]
        var blobs: [String: String]
        var requests: RequestCounts

        static func read(_ server: RunningServer, stdout: String) async throws -> Outcome {
            let store = try StorageLocation.local(path: server.store).open(readOnly: true)
            var entities: [Entity] = []
            // Photo URLs name the server's port, which differs from run to run.
            let port = "127.0.0.1:\(server.port(.blob))/"
            try await store.forEachEntity(table: DataContract.table, partition: nil) { entity in
                var content = entity.content
                if let index = content.properties.firstIndex(where: { $0.name == "ImageUrl" }),
                    case .string(let url) = content.properties[index].value
                {
                    content.properties[index].value = .string(url.replacing(port, with: "127.0.0.1:PORT/"))
                }
                entities.append(content)
            }
            let blobs = try await store.blobProperties(container: DataContract.photoContainer)
            return Outcome(
                entities: entities,
                blobs: Dictionary(uniqueKeysWithValues: blobs.map { ($0.name, $0.contentMD5) }),
                requests: try requests(in: stdout)
            )
        }

        /// `  requests      203, and 4 tries again` in seed's summary.
        static func requests(in stdout: String) throws -> RequestCounts {
            let line = try #require(
                stdout.split(separator: "\n").first { $0.hasPrefix("  requests ") },
                "no requests line in\n\(stdout)"
            )
            let numbers = line.split { !$0.isNumber }.compactMap { Int($0) }
            return RequestCounts(requests: numbers[0], retries: numbers.count > 1 ? numbers[1] : 0)
        }
    }

    static func seed(
        _ server: RunningServer,
        _ arguments: [String] = seedArguments
    ) async throws -> (ProcessResult, Outcome) {
        let scratch = try Scratch()
        let result = try await SeedTool.run(arguments + ["--store", server.connectionString()], in: scratch.path)
        try #require(result.status == 0, "\(result)")
        return (result, try await Outcome.read(server, stdout: result.stdout))
    }

    @Test(
        "a 20,000-event seed through 503s with Retry-After, 500s, dropped connections, lost replies and slow replies lands what an undisturbed run does, in the requests of one plus a try per fault"
    )
    func faults() async throws {
        let undisturbed = try await withRunningServer { server in try await Self.seed(server).1 }
        #expect(undisturbed.requests.retries == 0)
        #expect(undisturbed.entities.count == 20_008)
        // ⌈20,008 / 100⌉ = 201 batches (events and speakers are separate partitions: 201 or 202), and
        // the fixed calls: manifest, table, container, a HEAD and a PUT per photo.
        #expect(undisturbed.requests.requests <= 202 + 40, "\(undisturbed.requests)")

        let plan = try FaultPlan(
            // One request in ten or so fails, so that six tries of one batch all failing is a
            // one-in-a-million chance; 25-30 faults in all.
            parsing:
                "lose/every=31/batch,503/every=37/batch,500/every=41/batch,drop/every=43/batch,delay=700/every=9/batch,"
                + "503/first=1/path=/devstoreaccount1/speakers,drop/every=3/first=6/path=/devstoreaccount1/speakers"
        )
        let (result, faulted) = try await withRunningServer(
            configure: { $0.faults = plan },
            { server in
                try await Self.seed(server)
            }
        )
        let differing = zip(faulted.entities, undisturbed.entities).filter { $0 != $1 }.map { $0.0.rowKey }
        #expect(
            faulted.entities.count == undisturbed.entities.count && differing.isEmpty,
            "\(differing.count) differ, first \(differing.prefix(3))"
        )
        #expect(faulted.blobs == undisturbed.blobs)
        #expect(faulted.blobs.count == 8)

        let fired = plan.fired
        // The photo container's requests (its creation and the uploads) met faults too.
        #expect(faulted.requests.retries > 0)
        let failures = fired.filter { $0.key != .delay(milliseconds: 700) }.values.reduce(0, +)
        let lost = fired[.loseReply] ?? 0
        #expect(
            lost >= 3 && (fired[.serverBusy] ?? 0) >= 3 && (fired[.internalError] ?? 0) >= 3
                && (fired[.dropConnection] ?? 0) >= 3,
            "\(fired)"
        )
        #expect((fired[.delay(milliseconds: 700)] ?? 0) > 10, "\(fired)")
        // Every failed try is tried again once; a lost insert is then checked with one query.
        #expect(faulted.requests.retries == failures, "\(faulted.requests) for \(fired)\n\(result)")
        #expect(faulted.requests.requests >= undisturbed.requests.requests, "\(faulted.requests)")
        #expect(faulted.requests.requests <= undisturbed.requests.requests + lost, "\(faulted.requests) for \(fired)")
    }

    @Test(
        "a seed killed mid-run is finished by the same command, with exactly the entities of a run never killed",
        .timeLimit(.minutes(6))
    )
    func interrupted() async throws {
        let arguments = ["--seed", "9", "--events", "6000", "--from", "2026-01-01", "--parallel", "1"]
        let undisturbed = try await withRunningServer { server in try await Self.seed(server, arguments).1 }
        // A slow account (5 ms a request, one at a time), so that the kill lands mid-run.
        let resumed = try await withRunningServer(
            configure: { $0.latencyMilliseconds = 5 },
            { server in
                let scratch = try Scratch()
                let command = arguments + ["--store", server.connectionString()]
                let child = try SeedTool.start(command, in: scratch.path)
                let store = try StorageLocation.local(path: server.store).open(readOnly: true)
                var committed = 0
                let deadline = ContinuousClock.now + .seconds(120)
                while committed == 0, child.isRunning, ContinuousClock.now < deadline {
                    committed =
                        (try? await store.entityCounts(table: DataContract.table)[DataContract.eventsPartition]) ?? 0
                    try await Task.sleep(for: .milliseconds(5))
                }
                child.kill(SIGKILL)
                let killed = await child.finish()
                try #require(killed.killedBySignal, "seed finished before it could be killed: \(killed)")
                try #require(committed > 0 && committed < 6000, "\(committed) events when killed")
                let again = try await SeedTool.run(command, in: scratch.path)
                #expect(again.status == 0, "\(again)")
                #expect(again.stdout.contains("Finished an interrupted run"), "\(again)")
                return try await Outcome.read(server, stdout: again.stdout)
            }
        )
        #expect(resumed.entities.count == undisturbed.entities.count)
        #expect(
            zip(resumed.entities, undisturbed.entities).allSatisfy { $0 == $1 },
            "the same entities as a run never killed"
        )
        #expect(resumed.blobs == undisturbed.blobs)
    }

    @Test(
        "seed, export and validate by connection string; a merge re-run changes nothing, a dry run writes nothing, --reset starts over"
    )
    func tools() async throws {
        try await withRunningServer { server in
            let scratch = try Scratch()
            let store = server.connectionString()
            let seeded = try await SeedTool.run(["--seed", "3", "--events", "300", "--store", store], in: scratch.path)
            #expect(seeded.status == 0, "\(seeded)")
            let again = try await SeedTool.run(
                ["--seed", "3", "--events", "300", "--store", store, "--mode", "merge"],
                in: scratch.path
            )
            #expect(again.stdout.contains("0 inserted, 0 updated, 308 unchanged"), "\(again)")
            // One page of 1,000 entities read to learn what is there, then nothing written.
            #expect(try Outcome.requests(in: again.stdout).requests < 30, "\(again)")

            // A dry run reads and writes nothing: its summary says what a real run would write.
            let dry = try await SeedTool.run(
                ["--seed", "4", "--events", "50", "--store", store, "--mode", "merge", "--dry-run"],
                in: scratch.path
            )
            #expect(dry.status == 0 && dry.stdout.hasPrefix("Dry run: nothing was written"), "\(dry)")

            let validated = try await BuiltTool.validate.run(["--store", store], in: scratch.path)
            #expect(validated.status == 0, "\(validated)")
            #expect(validated.stdout.contains("no problems in 308 entities"), "\(validated)")

            // Exported from the account, the events are those the local account holds for the same seed.
            let exported = try await BuiltTool.export.run(
                ["--store", store, "--partition", "Events", "--format", "ndjson", "--metadata", "none"],
                in: scratch.path
            )
            #expect(exported.status == 0, "\(exported)")
            let local = scratch.file("local.sqlite")
            #expect(
                try await SeedTool.run(
                    ["--seed", "3", "--events", "300", "--store", local, "--quiet"],
                    in: scratch.path
                ).status == 0
            )
            let fromLocal = try await BuiltTool.export.run(
                ["--store", local, "--partition", "Events", "--format", "ndjson", "--metadata", "none"],
                in: scratch.path
            )
            #expect(Self.withoutTimestamps(exported.stdout) == Self.withoutTimestamps(fromLocal.stdout))
            #expect(exported.stdout.split(separator: "\n").count == 300)

            // --reset empties the table and the container first: what is left is the new run's alone.
            let reset = try await SeedTool.run(
                ["--seed", "4", "--events", "50", "--store", store, "--reset"],
                in: scratch.path
            )
            #expect(reset.status == 0, "\(reset)")
            let account = try StorageLocation.local(path: server.store).open(readOnly: true)
            #expect(
                try await account.entityCounts(table: DataContract.table) == [
                    DataContract.eventsPartition: 50, DataContract.speakersPartition: 8,
                ]
            )
            #expect(try await BuiltTool.validate.run(["--store", store], in: scratch.path).status == 0)
        }
    }

    /// NDJSON lines without their `Timestamp` member, which the store sets on every write.
    static func withoutTimestamps(_ ndjson: String) -> [String] {
        ndjson.split(separator: "\n").map { line in String(line).replacing(/"Timestamp":"[^"]*",?/, with: "") }
    }

    @Test("a wrong key is exit 69, at once, naming the refusal and never the key; nothing is written")
    func wrongKey() async throws {
        try await withRunningServer { server in
            let scratch = try Scratch()
            let wrong = "AAAA" + DevelopmentAccount.key.dropFirst(4)
            let result = try await SeedTool.run(
                ["--events", "10", "--store", server.connectionString(key: String(wrong))],
                in: scratch.path
            )
            #expect(result.status == 69, "\(result)")
            #expect(result.stderr.contains("AuthenticationFailed"), "\(result)")
            // One line: not the service's RequestId and Time, nor the string it signed.
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result)")
            #expect(
                !result.stderr.contains(String(wrong.prefix(12))) && !result.stdout.contains(String(wrong.prefix(12)))
            )
            let store = try StorageLocation.local(path: server.store).open(readOnly: true)
            #expect(try await store.tableNames().isEmpty)
        }
    }

    @Test("a SAS token that does not allow the writes is exit 69, and its signature is never shown")
    func narrowSAS() async throws {
        try await withRunningServer { server in
            let scratch = try Scratch()
            let credentials = try StorageCredentials(accountName: DevelopmentAccount.name, key: DevelopmentAccount.key)
            let readOnly = try SharedAccessSignature.account(
                services: "bt",
                resourceTypes: "sco",
                permissions: "rl",
                expiry: EdmDateTime.now().adding(ticks: 36_000_000_000)!
            ).signed(with: credentials)
            let result = try await SeedTool.run(
                ["--events", "10", "--store", server.connectionString(sas: readOnly.token)],
                in: scratch.path
            )
            #expect(result.status == 69, "\(result)")
            #expect(
                !result.stderr.contains(readOnly.signature) && !result.stdout.contains(readOnly.signature),
                "\(result)"
            )
            // Reading is allowed: validate finds the account empty.
            let validated = try await BuiltTool.validate.run(
                ["--store", server.connectionString(sas: readOnly.token)],
                in: scratch.path
            )
            #expect(validated.status == 66, "\(validated)")
            #expect(!validated.stderr.contains(readOnly.signature), "\(validated)")
        }
    }

    @Test("an endpoint where nothing listens is exit 69 within a bounded time, for every tool")
    func unreachable() async throws {
        let scratch = try Scratch()
        // A port that was free a moment ago: bound, then closed.
        let port = try await withRunningServer { server in server.port(.table) }
        let store =
            "AccountName=devstoreaccount1;AccountKey=\(DevelopmentAccount.key);TableEndpoint=http://127.0.0.1:\(port)/devstoreaccount1;BlobEndpoint=http://127.0.0.1:\(port)/devstoreaccount1"
        let started = ContinuousClock.now
        let seeded = try await SeedTool.run(["--events", "10", "--store", store], in: scratch.path)
        #expect(seeded.status == 69, "\(seeded)")
        #expect(
            seeded.stderr.contains("nothing is listening on 127.0.0.1:\(port)\n"),
            "the message names the endpoint: \(seeded)"
        )
        #expect(!seeded.stderr.contains(DevelopmentAccount.key.prefix(12)))
        let exported = try await BuiltTool.export.run(["--store", store], in: scratch.path)
        #expect(exported.status == 69, "\(exported)")
        let validated = try await BuiltTool.validate.run(["--store", store], in: scratch.path)
        #expect(validated.status == 69, "\(validated)")
        // Refused on loopback, each tool stops at the first try; the bound is loose for a loaded machine.
        #expect(ContinuousClock.now - started < .seconds(120))
    }

    @Test("--store azure reads AZURE_STORAGE_CONNECTION_STRING")
    func environmentVariable() async throws {
        try await withRunningServer { server in
            let scratch = try Scratch()
            let result = try await SeedTool.run(
                ["--events", "20", "--store", "azure"],
                in: scratch.path,
                environment: ["AZURE_STORAGE_CONNECTION_STRING": server.connectionString()]
            )
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("devstoreaccount1"), "\(result)")
            let store = try StorageLocation.local(path: server.store).open(readOnly: true)
            #expect(try await store.entityCounts(table: DataContract.table)[DataContract.eventsPartition] == 20)
        }
    }
}
