import Foundation
import SpeakEasyData
import SpeakEasyServer
import TestServer
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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
