import SpeakEasyCore
import SpeakEasyFormats

#if canImport(Glibc)
import Glibc
#endif

/// One executable for every fuzz target; `SPEAKEASY_FUZZ_TARGET` picks which (Fuzz/run sets it).
///
/// Built with `-sanitize=fuzzer,address -DFUZZING`, libFuzzer drives `LLVMFuzzerTestOneInput` and
/// provides `main`. Built without (`SPEAKEASY_FUZZ=1 swift build --product fuzz`), `main` replays the
/// files named on the command line through the same target: a found crash becomes a test case.
enum FuzzTarget {
    /// Each target takes one input and traps (`fatalError`) on a wrong answer: a crash is a finding.
    static let all: [String: @Sendable ([UInt8]) -> Void] = [
        "atom": { ReaderTargets.whole($0, format: .atom) },
        "json": {
            ReaderTargets.whole($0, format: .json)
            CopyTargets.check($0)
        },
        "ndjson": { ReaderTargets.whole($0, format: .ndjson) },
        "csv": { ReaderTargets.whole($0, format: .csv) },
        "pieces": ReaderTargets.pieces,
        "prefetch": PrefetchTarget.run,
        "validate": ValidateTarget.run,
        "edm": ValueTargets.edm,
        "filter": ValueTargets.filter,
        "filter-evaluation": FilterEvaluationTarget.run,
        "batch": ProtocolTargets.batch,
        "connection-string": ProtocolTargets.connectionString,
        "sas": ProtocolTargets.sharedAccessSignature,
        "range": ProtocolTargets.range,
        "error-body": ProtocolTargets.errorBody,
    ]

    static let selected: @Sendable ([UInt8]) -> Void = {
        let name = getenv("SPEAKEASY_FUZZ_TARGET").map { String(cString: $0) } ?? ""
        guard let target = all[name] else {
            fatalError(
                "SPEAKEASY_FUZZ_TARGET must be one of \(all.keys.sorted().joined(separator: ", ")), not '\(name)'"
            )
        }
        return target
    }()
}

#if FUZZING
/// libFuzzer's entry for a program with its own `main` (SwiftPM names an executable's `main`
/// `<target>_main` and points `main` at it, where libFuzzer's own would be).
@_silgen_name("LLVMFuzzerRunDriver")
func runDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@_cdecl("fuzz_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runDriver(&count, &arguments) { data, size in fuzzOne(data, size) }
}

/// Also what libFuzzer's own objects refer to.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzTarget.selected(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}
#else
@main
enum Replay {
    static func main() throws {
        for path in CommandLine.arguments.dropFirst() {
            let input = try ByteInput(path: path)
            var bytes: [UInt8] = []
            while try input.read(appendingTo: &bytes) > 0 {}
            print(path)
            FuzzTarget.selected(bytes)
        }
    }
}
#endif
