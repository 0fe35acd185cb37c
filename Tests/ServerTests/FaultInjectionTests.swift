import Foundation
@testable import SpeakEasyServer
import SpeakEasyData
import TestFixtures
import TestServer
import Testing

@Suite("serve: fault injection")
struct FaultInjectionTests {
    @Test("rules count the requests they match and fire on the ones they name")
    func firing() throws {
        let plan = try FaultPlan(parsing: "503/every=3/batch, drop/first=2/path=/acct/photos/a b, delay=5")
        let batch = (1...6).map { _ in plan.fault(path: "/acct/$batch") }
        #expect(batch == [.delay(milliseconds: 5), .delay(milliseconds: 5), .serverBusy, .delay(milliseconds: 5), .delay(milliseconds: 5), .serverBusy])
        let photos = (1...3).map { _ in plan.fault(path: "/acct/photos/a b/1.jpg") }
        #expect(photos == [.dropConnection, .dropConnection, .delay(milliseconds: 5)])
        #expect(FaultPlan.none.fault(path: "/acct/$batch") == nil)
    }

    @Test("a plan that cannot be read names the rule", arguments: ["404", "503/every=0", "503/sometimes", "delay=x", "delay=-1", "drop/first="])
    func malformed(spec: String) {
        #expect(throws: FaultPlanError.self) { try FaultPlan(parsing: spec) }
        do { _ = try FaultPlan(parsing: spec) } catch { #expect(error.description.contains("fault rule")) }
    }

    @Test("over HTTP: a 503 carries Retry-After and Azure's ServerBusy; a dropped connection gives no reply; the server stays up")
    func overHTTP() async throws {
        try await withRunningServer(configure: { $0.faults = try! FaultPlan(parsing: "503/first=1,drop/first=3") }) { server in
            let url = "http://127.0.0.1:\(server.port(.blob))/\(DevelopmentAccount.name)/c/b"
            let busy = try await send("GET", url)
            #expect(busy.status == 503)
            #expect(busy.header("Retry-After") == "1")
            #expect(busy.errorCode == "ServerBusy")
            // Foundation's client sends a GET again once when a kept-alive connection drops: two drops.
            await #expect(throws: (any Error).self) { _ = try await send("GET", url) }
            let after = try await send("GET", url)
            #expect(after.status == 404, "then it answers as usual")
        }
    }
}
