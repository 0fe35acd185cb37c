import SpeakEasyData
import Testing

@Suite("x-ms-version: the service versions accepted")
struct StorageVersionTests {
    @Test(
        "Azure's versions and later dates are accepted; anything else is refused",
        arguments: [
            ("2019-02-02", true), ("2009-09-19", true), ("2026-10-06", true), ("2031-01-01", true),
            ("invalid", false), ("2019-02-03", false), ("2019-2-2", false), ("2031-13-01", false), ("", false),
            ("２０１９-02-02", false),
        ]
    )
    func accepted(version: String, accepted: Bool) {
        #expect(StorageVersion.isAccepted(version) == accepted)
    }
}
