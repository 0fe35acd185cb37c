import CLISupport
import SpeakEasyData
import Testing

@Suite("ExitStatus")
struct ExitStatusTests {
    @Test(
        "every failure kind maps to its sysexits code",
        arguments: [
            (FailureKind.usage, Int32(64)), (.malformedInput, 65), (.inputMissing, 66), (.storageUnavailable, 69),
            (.cannotCreateOutput, 73), (.ioError, 74),
        ]
    )
    func exitCodes(kind: FailureKind, code: Int32) {
        #expect(ExitStatus.code(for: kind) == code)
    }

    @Test(
        "a storage account's failure exits as the README's table says",
        arguments: [
            (StorageError.Reason.notFound, Int32(66)), (.alreadyExists, 65), (.invalidInput, 65),
            (.unsupportedByService, 65), (.corrupt, 65),
            (.notModified, 65), (.invalidRange, 65), (.preconditionFailed, 69), (.busy, 69), (.unreachable, 69),
            (.refused, 69),
            (.unauthorized, 73), (.unavailable, 74),
        ]
    )
    func storageErrors(reason: StorageError.Reason, code: Int32) {
        #expect(ExitStatus.code(for: StorageError(reason, account: "a", "m")) == code)
    }

    @Test("an error of no known kind is an I/O error")
    func unknown() {
        struct Other: Error {}
        #expect(ExitStatus.code(for: Other()) == 74)
    }
}
