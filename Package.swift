// swift-tools-version: 6.1
import PackageDescription

// The library's layers, each a target that may import only the layers above it in this list, so the
// compiler holds the direction (as NIOCore and NIOPosix do):
//
//   SpeakEasyCore        bytes (SWAR, hashing, byte input), POSIX files, threads and queues, FailureKind
//   SpeakEasyModel       Edm values, entities and their limits, speakers and events, blob addresses
//   SpeakEasyFormats     Atom, JSON and CSV readers and writers; parallel reading of a file (Parallel/)
//   SpeakEasyStorage     the storage seam: the StorageAccount protocol, StorageError, entity and blob
//                        values, EntityFilter; no backend
//   SpeakEasySQLite      the local account: one SQLite file (CSQLite)
//   SpeakEasyProtocol    Azure Storage's REST protocol, for both sides: Shared Key and SAS, connection
//                        strings, request and response shapes, $batch, wire errors and their maps
//   SpeakEasyAzure       the Azure client (async-http-client): a StorageAccount over the REST protocol,
//                        its requests signed, timed and retried
//   SpeakEasyAccounts    StorageLocation: a `--store` value or a connection string opened as either
//                        backend (the one place that names both)
//   SpeakEasyConversion  export: entities from a store or files into a format
//   SpeakEasySeeding     generation and seeding
//   SpeakEasyValidation  validation and its reports (reads the manifest, Model's record, that Seeding writes;
//                        the HTML report's templates are Mustache, compiled in)
//   SpeakEasyServer      `serve`: the Table and Blob services over a StorageAccount, on SwiftNIO, and the
//                        browser view of the account (Mustache templates; it runs Validation on demand)
//   SpeakEasyData        the library: the public API (Store, EntityFile, LocalStorageServer, …) over the
//                        layers above, and re-exports of all of them but SQLite and Server, so that the
//                        tools and tests `import SpeakEasyData` and no backend's type is in their reach
//
// Core → Model → Formats → Storage → {SQLite, Protocol → Azure} → Accounts; Storage → {Conversion,
// Seeding, Validation}; Storage + Protocol + Validation → Server; all of them → Data. Names that cross a
// target are `package`; `public` is only what the library offers (every public name is documented, and
// CI checks that none disappears: CONTRIBUTING.md). CLinux (what Swift's Glibc module leaves out:
// mallopt, sync_file_range) goes to Core only, CSQLite to SQLite only, CLibXML2 to Formats only,
// swift-crypto to the layers that hash (Model's name-based GUIDs, Storage's digests, Protocol's signing,
// Seeding's keys, Server's MD5s), swift-mustache to Validation and Server (the report's and the browser
// view's templates).
let package = Package(
    name: "SpeakEasyData",
    // Linux only is supported and tested. No platforms are declared: a macOS build is untested (it
    // would need at least macOS 15 for the standard library's Synchronization).
    products: [
        .executable(name: "seed", targets: ["seed"]),
        .executable(name: "export", targets: ["export"]),
        .executable(name: "validate", targets: ["validate"]),
        .executable(name: "serve", targets: ["serve"]),
        // The library: SpeakEasyData, and the layers whose public names it re-exports (listed so that
        // `swift package diagnose-api-breaking-changes`, which compares a library product's modules,
        // checks theirs too; CONTRIBUTING.md). A user still needs only `import SpeakEasyData`.
        .library(
            name: "SpeakEasyData",
            targets: [
                "SpeakEasyData", "SpeakEasyModel", "SpeakEasyFormats", "SpeakEasyStorage", "SpeakEasySeeding",
                "SpeakEasyValidation",
            ]
        ),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
    ],
    targets: [
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CLinux"),
        .target(name: "SpeakEasyCore", dependencies: ["CLinux"]),
        .target(
            name: "SpeakEasyModel",
            dependencies: ["SpeakEasyCore", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .target(name: "SpeakEasyFormats", dependencies: ["SpeakEasyCore", "SpeakEasyModel", "CLibXML2"]),
        .target(
            name: "SpeakEasyStorage",
            dependencies: [
                "SpeakEasyCore", "SpeakEasyModel", "SpeakEasyFormats",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "SpeakEasySQLite",
            dependencies: ["SpeakEasyCore", "SpeakEasyModel", "SpeakEasyFormats", "SpeakEasyStorage", "CSQLite"]
        ),
        .target(
            name: "SpeakEasyProtocol",
            dependencies: [
                "SpeakEasyCore", "SpeakEasyModel", "SpeakEasyFormats", "SpeakEasyStorage",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "SpeakEasyAzure",
            dependencies: [
                "SpeakEasyCore", "SpeakEasyModel", "SpeakEasyStorage", "SpeakEasyProtocol",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .target(
            name: "SpeakEasyAccounts",
            dependencies: [
                "SpeakEasyCore", "SpeakEasyStorage", "SpeakEasySQLite", "SpeakEasyProtocol", "SpeakEasyAzure",
            ]
        ),
        .target(
            name: "SpeakEasyConversion",
            dependencies: ["SpeakEasyCore", "SpeakEasyModel", "SpeakEasyFormats", "SpeakEasyStorage"]
        ),
        .target(
            name: "SpeakEasySeeding",
            dependencies: [
                "SpeakEasyCore", "SpeakEasyModel", "SpeakEasyFormats", "SpeakEasyStorage",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "SpeakEasyValidation",
            dependencies: [
                "SpeakEasyCore", "SpeakEasyModel", "SpeakEasyFormats", "SpeakEasyStorage",
                .product(name: "Mustache", package: "swift-mustache"),
            ]
        ),
        .target(
            name: "SpeakEasyData",
            dependencies: [
                "SpeakEasyCore", "SpeakEasyModel", "SpeakEasyFormats", "SpeakEasyStorage", "SpeakEasyProtocol",
                "SpeakEasyAzure",
                "SpeakEasyAccounts", "SpeakEasyConversion", "SpeakEasySeeding", "SpeakEasyValidation",
                "SpeakEasyServer", "BuiltInSamples",
            ]
        ),
        .target(
            name: "SpeakEasyServer",
            dependencies: [
                "SpeakEasyCore", "SpeakEasyModel", "SpeakEasyFormats", "SpeakEasyStorage", "SpeakEasyProtocol",
                "SpeakEasyValidation",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The repository's samples/ built into the tools (Sources/BuiltInSamples/samples links to it).
        .target(
            name: "BuiltInSamples",
            resources: [.embedInCode("samples/catalog.json"), .embedInCode("samples/photos")]
        ),
        .target(
            name: "CLISupport",
            dependencies: [
                "SpeakEasyData",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "seed",
            dependencies: [
                "SpeakEasyData",
                "CLISupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "export",
            dependencies: [
                "SpeakEasyData",
                "CLISupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "validate",
            dependencies: [
                "SpeakEasyData",
                "CLISupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "serve",
            dependencies: [
                "SpeakEasyData",
                "SpeakEasyServer",
                "CLISupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Test support shared by the test targets: paths, scratch directories, child processes, sample
        // values (the recorded payloads and other data files are Tests/Fixtures).
        .target(name: "TestSupport", dependencies: ["SpeakEasyData"], path: "Tests/TestSupport"),
        // A server in the test process, for the tests that talk to serve over HTTP.
        .target(name: "TestServer", dependencies: ["SpeakEasyServer", "TestSupport"], path: "Tests/TestServer"),
        .testTarget(
            name: "SpeakEasyDataTests",
            // The layers whose internals some tests reach (`@testable import`), besides the whole.
            dependencies: [
                "SpeakEasyData", "SpeakEasyFormats", "SpeakEasyValidation", "SpeakEasySQLite", "CLISupport", "CSQLite",
                "TestSupport", "SpeakEasyAzure", "TestServer",
            ],
            exclude: ["Snapshots"]
        ),
        // The server in-process, over real HTTP on loopback.
        .testTarget(
            name: "ServerTests",
            dependencies: ["SpeakEasyServer", "SpeakEasyData", "TestSupport", "TestServer"]
        ),
        // The Azure client against serve, over real HTTP on loopback.
        .testTarget(
            name: "AzureClientTests",
            dependencies: ["SpeakEasyAzure", "SpeakEasyServer", "SpeakEasyData", "TestSupport", "TestServer"]
        ),
        // The command-line support's pure parts: message and progress-line formatting.
        .testTarget(name: "CLISupportTests", dependencies: ["CLISupport", "BuiltInSamples", "SpeakEasyData"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["SpeakEasyData", "TestSupport", "TestServer", "SpeakEasyServer"]
        ),
        // Our JSON and Atom against the official Azure SDKs for Python; see Tests/InteropTests/setup.sh.
        .testTarget(
            name: "InteropTests",
            dependencies: ["SpeakEasyData", "SpeakEasyServer", "TestSupport", "TestServer"],
            exclude: ["python", "setup.sh", "azcli-requirements.txt"]
        ),
        // The pages a person opens (validate's HTML report, serve's browser view), judged in headless
        // Chromium and by the Nu HTML checker; see Tests/BrowserTests/Support/HeadlessChromium.swift.
        .testTarget(
            name: "BrowserTests",
            dependencies: ["SpeakEasyData", "SpeakEasyServer", "TestSupport", "TestServer"],
            exclude: ["python"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// Stricter language features on every target, as in swift-configuration's Package.swift.
for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}

// The fuzz targets (Fuzz/, see Fuzz/run): one executable, in the package only when SPEAKEASY_FUZZ is
// set, so the normal build and tests never compile it. It reaches the parsers' `package` names, which
// a package of its own could not.
if Context.environment["SPEAKEASY_FUZZ"] != nil {
    package.targets.append(
        .executableTarget(
            name: "fuzz",
            dependencies: [
                "SpeakEasyCore", "SpeakEasyModel", "SpeakEasyFormats", "SpeakEasyStorage", "SpeakEasySQLite",
                "SpeakEasyProtocol", "SpeakEasyValidation",
            ],
            path: "Fuzz/Sources/fuzz",
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("MemberImportVisibility"),
                .enableUpcomingFeature("InternalImportsByDefault"),
            ]
        )
    )
    package.products.append(.executable(name: "fuzz", targets: ["fuzz"]))
}

// The benchmarks of the hot paths (Benchmarks/, see .ci/benchmarks): their malloc counts, checked
// against committed thresholds. Like the fuzz target, in the package only when SPEAKEASY_BENCHMARKS is
// set, so that no other build resolves ordo-one/benchmark or compiles them, and for the same reason:
// the readers, writers and encoders they measure are `package` names. Swift tools 6.1 is for `traits`:
// the MallocInterposer trait is what counts mallocs on Linux with Swift 6.3.
if Context.environment["SPEAKEASY_BENCHMARKS"] != nil {
    package.dependencies.append(
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"])
    )
    package.targets.append(
        .executableTarget(
            name: "HotPaths",
            dependencies: [
                "SpeakEasyData", "SpeakEasyProtocol", .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/HotPaths",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    )
}
