import Foundation
import SpeakEasyData
import SpeakEasyServer
import TestServer
import TestSupport
import Testing

/// A SAS's `sip` limits the client addresses it is valid from: outside it Azure answers 403
/// AuthorizationSourceIPMismatch, for blobs and tables alike (issue 48 §4.3). The tests' client is
/// 127.0.0.1.
@Suite("serve: a SAS's IP range")
struct SASSourceIPTests {
    static let photo = Array("a private photo".utf8)
    static let elsewhere = ["10.1.2.3", "10.0.0.0-10.255.255.255", "127.0.0.2-127.0.0.9"]
    static let here = ["127.0.0.1", "127.0.0.0-127.0.0.255", "127.0.0.1-127.0.0.1", "0.0.0.0-255.255.255.255"]

    /// `token` with `sip`, signed for `target`.
    static func signed(_ token: SharedAccessSignature, ip: String, _ target: SASTarget) throws -> String {
        var token = token
        token.ipRange = ip
        return try token.signed(with: .development, target: target).token
    }

    @Test("blob, container and account SAS with an IP range without 127.0.0.1 are refused; with it, they read")
    func blobs() async throws {
        try await withRunningServer { server in
            let store = try StorageLocation.local(path: server.store).open(readOnly: false)
            try await store.createContainerIfNotExists("private", access: .private)
            _ = try await store.putBlob(
                container: "private",
                name: "ada.jpg",
                contentType: "image/jpeg",
                data: Self.photo
            )
            let expiry = try #require(EdmDateTime.now().adding(ticks: 3_600 * EdmDateTime.ticksPerSecond))
            let tokens: [(String, SharedAccessSignature, SASTarget)] = [
                (
                    "blob SAS", SharedAccessSignature.blob(resource: "b", permissions: "r", expiry: expiry),
                    .blob(container: "private", name: "ada.jpg")
                ),
                (
                    "container SAS", SharedAccessSignature.blob(resource: "c", permissions: "r", expiry: expiry),
                    .container("private")
                ),
                (
                    "account SAS",
                    SharedAccessSignature.account(services: "b", resourceTypes: "o", permissions: "r", expiry: expiry),
                    .service
                ),
            ]
            let url = "http://127.0.0.1:\(server.port(.blob))/\(DevelopmentAccount.name)/private/ada.jpg"
            for (what, token, target) in tokens {
                for ip in Self.elsewhere {
                    let reply = try await send("GET", url + "?" + Self.signed(token, ip: ip, target))
                    #expect(reply.status == 403, "\(what), sip=\(ip): \(reply.text)")
                    #expect(reply.errorCode == "AuthorizationSourceIPMismatch", "\(what), sip=\(ip)")
                    #expect(reply.body != Self.photo)
                }
                for ip in Self.here {
                    let reply = try await send("GET", url + "?" + Self.signed(token, ip: ip, target))
                    #expect(reply.status == 200, "\(what), sip=\(ip): \(reply.text)")
                    #expect(reply.body == Self.photo, "\(what), sip=\(ip)")
                }
            }
            // A range that is no IPv4 range is a malformed token.
            for ip in ["localhost", "10.1.2.3-10.1.2.1", "10.1.2", "::1"] {
                let reply = try await send("GET", url + "?" + Self.signed(tokens[0].1, ip: ip, tokens[0].2))
                #expect(reply.status == 403, "sip=\(ip)")
                #expect(reply.errorCode == "AuthenticationFailed", "sip=\(ip): \(reply.text)")
            }
        }
    }

    @Test("table and account SAS with an IP range without 127.0.0.1 are refused; with it, they query")
    func tables() async throws {
        try await withRunningServer { server in
            let store = try StorageLocation.local(path: server.store).open(readOnly: false)
            try await store.createTableIfNotExists("speakers")
            let expiry = try #require(EdmDateTime.now().adding(ticks: 3_600 * EdmDateTime.ticksPerSecond))
            let tokens: [(String, SharedAccessSignature, SASTarget)] = [
                (
                    "table SAS", SharedAccessSignature.table("speakers", permissions: "r", expiry: expiry),
                    .table("speakers")
                ),
                (
                    "account SAS",
                    SharedAccessSignature.account(services: "t", resourceTypes: "o", permissions: "r", expiry: expiry),
                    .service
                ),
            ]
            let url = "http://127.0.0.1:\(server.port(.table))/\(DevelopmentAccount.name)/speakers()"
            let json = ["Accept": "application/json;odata=nometadata"]
            for (what, token, target) in tokens {
                for ip in Self.elsewhere {
                    let reply = try await send("GET", url + "?" + Self.signed(token, ip: ip, target), headers: json)
                    #expect(reply.status == 403, "\(what), sip=\(ip): \(reply.text)")
                    #expect(reply.text.contains("AuthorizationSourceIPMismatch"), "\(what), sip=\(ip): \(reply.text)")
                }
                for ip in Self.here {
                    let reply = try await send("GET", url + "?" + Self.signed(token, ip: ip, target), headers: json)
                    #expect(reply.status == 200, "\(what), sip=\(ip): \(reply.text)")
                }
            }
        }
    }
}
