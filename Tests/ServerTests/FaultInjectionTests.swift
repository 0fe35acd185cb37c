import Foundation
import SpeakEasyData
import TestServer
import TestSupport
import Testing

@testable import SpeakEasyServer

@Suite("serve: fault injection")
struct FaultInjectionTests {
    @Test("rules count the requests they match and fire on the ones they name")
    func firing() throws {
        let plan = try FaultPlan(parsing: "503/every=3/batch, drop/first=2/path=/acct/photos/a b, delay=5")
        let batch = (1...6).map { _ in plan.fault(path: "/acct/$batch") }
        #expect(
            batch == [
                .delay(milliseconds: 5), .delay(milliseconds: 5), .serverBusy, .delay(milliseconds: 5),
                .delay(milliseconds: 5), .serverBusy,
            ]
        )
        let photos = (1...3).map { _ in plan.fault(path: "/acct/photos/a b/1.jpg") }
        #expect(photos == [.dropConnection, .dropConnection, .delay(milliseconds: 5)])
        #expect(FaultPlan.none.fault(path: "/acct/$batch") == nil)
    }

    @Test(
        "a plan that cannot be read names the rule",
        arguments: ["404", "503/every=0", "503/sometimes", "delay=x", "delay=-1", "drop/first="]
    )
    func malformed(spec: String) {
        #expect(throws: FaultPlanError.self) { try FaultPlan(parsing: spec) }
        do { _ = try FaultPlan(parsing: spec) } catch { #expect(error.description.contains("fault rule")) }
    }

    @Test(
        "over HTTP: a 503 carries Retry-After and Azure's ServerBusy; a dropped connection gives no reply; the server stays up"
    )
    func overHTTP() async throws {
        try await withRunningServer(
            configure: { $0.faults = try! FaultPlan(parsing: "503/first=1,drop/first=2") },
            { server in
                // One request a connection, written as bytes: Foundation's client sends a GET again when a
                // kept-alive connection drops, or not when it had closed it already, so the count of
                // requests the plan sees depended on timing (a starved test run saw three drops).
                let request = Array(
                    "GET /\(DevelopmentAccount.name)/c/b HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8
                )
                let port = server.port(.blob)
                let busy = try await RawHTTP.exchange(port: port, request, quietSeconds: 60)
                let text = String(decoding: busy, as: UTF8.self)
                #expect(RawHTTP.statuses(busy) == [503], "\(text)")
                #expect(text.lowercased().contains("\r\nretry-after: 1\r\n"), "\(text)")
                #expect(text.contains("<Code>ServerBusy</Code>"), "\(text)")
                let dropped = try await RawHTTP.exchange(port: port, request, quietSeconds: 60)
                #expect(dropped.isEmpty, "dropped without a reply: \(String(decoding: dropped, as: UTF8.self))")
                let after = try await RawHTTP.exchange(port: port, request, quietSeconds: 60)
                #expect(RawHTTP.statuses(after) == [404], "then it answers as usual")
            }
        )
    }
}
