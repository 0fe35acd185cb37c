import CLISupport
import Foundation
import SpeakEasyData
import TestSupport
import Testing

/// The library's messages name no command-line option; the tools add theirs on top, in the words
/// they always printed.
@Suite struct LibraryMessagesTests {
    /// A fresh seed into a table with data: the library names its own options, the tool its flags.
    @Test func seedRefusal() async throws {
        try await withTemporaryDirectory { directory in
            let store = try Store(directory + "/store.sqlite")
            try await store.seed(SeedOptions(seed: 1, eventCount: 2))
            let refusal = await #expect(throws: SeedRefusal.self) { try await store.seed(SeedOptions(seed: 1)) }
            let library = refusal?.description ?? ""
            #expect(!library.contains("--"), "\(library)")
            #expect(library.hasSuffix("Seed in mode merge or replace to upsert, or reset the table first."))
            #expect(
                refusal.map { ToolExit.message($0) }?.hasSuffix(
                    "nothing was written. Use --mode merge or --mode replace to upsert, or --reset to empty it first."
                ) == true
            )
        }
    }

    /// Exporting onto the store's own file, or converting a file onto itself, would replace what is
    /// read: refused as a usage error, the store left whole.
    @Test func outputThatIsTheStoreOrAnInput() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/store.sqlite"
            let store = try Store(path)
            try await store.seed(SeedOptions(seed: 1, eventCount: 2))
            let onStore = await #expect(throws: FormatError.self) { try await store.export(to: path, as: .json) }
            #expect(onStore?.kind == .usage)
            #expect(
                onStore?.description.contains("is the same file as the store") == true,
                "\(String(describing: onStore))"
            )
            #expect(try await Store(path).count(in: "events") == 10)
            try await store.export(to: directory + "/all.json", as: .json)
            let onInput = await #expect(throws: FormatError.self) {
                try await EntityFile.convert([directory + "/all.json"], to: directory + "/all.json", as: .json)
            }
            #expect(onInput?.kind == .usage)
        }
    }

    /// A partition that is not there: the tool's option before the name, the library's quotes.
    @Test func nameNotFound() async throws {
        try await withTemporaryDirectory { directory in
            let store = try Store(directory + "/store.sqlite")
            try await store.seed(SeedOptions(seed: 1, eventCount: 2))
            let error = await #expect(throws: NameNotFoundError.self) {
                try await store.export(partition: "events", to: directory + "/out.json", as: .json)
            }
            #expect(
                error?.description
                    == "'events': no partition of table 'events' has that name; there are: Events, speakers"
            )
            #expect(
                error.map { ToolExit.message($0) }
                    == "--partition events: no partition of table 'events' has that name; there are: Events, speakers"
            )
        }
    }

    /// A store that is not there, read: the tool tells how to make one.
    @Test func noStore() async throws {
        try await withTemporaryDirectory { directory in
            let error = #expect(throws: StorageError.self) { try Store(directory + "/none.sqlite", readOnly: true) }
            #expect(error?.description == "\(directory)/none.sqlite: no storage account here")
            #expect(
                error.map { ToolExit.message($0) }
                    == "\(directory)/none.sqlite: no storage account here; run seed first, or name one with --store"
            )
        }
    }

    /// `azure` without its variable names the variable, not the option.
    @Test func azureWithoutItsVariable() {
        let error = #expect(throws: StorageError.self) { try Store("azure", environment: [:]) }
        let message = error?.description ?? ""
        #expect(message.contains("AZURE_STORAGE_CONNECTION_STRING") && !message.contains("--"), "\(message)")
    }
}
