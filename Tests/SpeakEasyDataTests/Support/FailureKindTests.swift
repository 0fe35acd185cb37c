import SpeakEasyData
import Testing

@Suite("FailureKind")
struct FailureKindTests {
    @Test(
        "every failure kind maps to its sysexits code",
        arguments: [
            (FailureKind.usage, Int32(64)), (.malformedInput, 65), (.inputMissing, 66), (.storageUnavailable, 69), (.cannotCreateOutput, 73), (.ioError, 74),
        ]
    )
    func exitCodes(kind: FailureKind, code: Int32) {
        #expect(kind.exitCode == code)
    }
}
