import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import SpeakEasyData
import TestSupport
import TestServer
import SpeakEasyServer
import Testing

@Suite("serve: starting and stopping")
struct ServerStartTests {
    @Test("both services listen on free ports and answer over HTTP")
    func listens() async throws {
        try await withRunningServer { server in
            for service in StorageService.allCases {
                let url = URL(string: "http://127.0.0.1:\(server.port(service))/\(DevelopmentAccount.name)?comp=list")!
                let (_, response) = try await URLSession.shared.data(from: url)
                let http = try #require(response as? HTTPURLResponse)
                #expect(http.statusCode >= 200)
            }
        }
    }
}
