// swift-tools-version: 6.0
import Foundation
import PackageDescription

// A package that uses SpeakEasy Data as any other package would: by `import SpeakEasyData` alone. CI
// builds it and runs its tests (.ci/run), so a name it uses that stops being public fails the build.
// Another package names the dependency by URL and version instead of this path:
//
//     .package(url: "https://github.com/<owner>/speakeasy-data", from: "1.0.0")
// A dependency by path is known by its directory's name (the checkout's, whatever it is called).
let speakEasyData = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent
let library = Target.Dependency.product(name: "SpeakEasyData", package: speakEasyData)

let package = Package(
    name: "SpeakEasyExamples",
    dependencies: [.package(path: "..")],
    targets: [
        // `convert-and-validate IN OUT`: converts a data file into another format and validates it.
        .executableTarget(name: "convert-and-validate", dependencies: [library]),
        // Tests that start the server in-process and talk to it with the library's Azure client.
        .testTarget(name: "ExampleTests", dependencies: [library]),
    ],
    swiftLanguageModes: [.v6]
)
