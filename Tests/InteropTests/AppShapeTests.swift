import Foundation
import SpeakEasyData
import SpeakEasyServer
import TestServer
import TestSupport
import Testing

/// The SpeakEasy app's own requests (python/app_shapes.py, the Windows Azure Toolkit for iOS's shapes)
/// against `serve` under the app's own account, with the account in the host name as the app's
/// hard-coded URLs carry it. The dates it reads are judged by Foundation's `DateFormatter` with the
/// app's pattern: ICU, the parser the app has.
@Suite("serve answers the app's own requests", .enabled(if: PythonSDK.enabled, PythonSDK.howToEnable))
struct AppShapeTests {
    /// The account and key an app build carries (any name and key: serve takes them as options).
    static let account = "speakeasyapp"
    static let key = Data("the app's own account key, 32 by".utf8).base64EncodedString()

    /// The app's parser: `NSDateFormatter` with its pattern, non-lenient, en_US_POSIX, UTC.
    static let appParser = AppDateFormatter.make()

    @Test(
        "a default seed's every EventDate parses in the app, read through the app's Atom query by host name; a whole second does not"
    )
    func appQuery() async throws {
        let wholeSecond = "2026-05-04T18:30:00.0000000Z"
        let configure = { (configuration: inout ServerConfiguration) in
            configuration.accountName = Self.account
            configuration.accountKey = Self.key
            configuration.pageSize = 40
        }
        let prepare = { (path: String) in
            try await ServeSeededStoreTests.seed(path, events: 100)
            // One event on a whole second, as a store written by another tool may hold: Azure serves
            // it trimmed, `…:30:00Z`, and the app must refuse that, as the app does on Azure.
            let store = try StorageLocation.local(path: path).open(readOnly: false)
            let event = Entity(
                partitionKey: DataContract.eventsPartition,
                rowKey: "ffffffff-0000-4000-8000-000000000000",
                properties: [
                    Property("EventDate", .dateTime(try EdmDateTime(parsing: wholeSecond))),
                    Property("EventName", .string("iOS Meetup")),
                ]
            )
            try await store.write([event], table: DataContract.table, mode: .insert)
            try await store.flush()
        }
        try await withRunningServer(configure: configure, prepare: prepare) { server in
            let store = try StorageLocation.local(path: server.store).open(readOnly: true)
            let photo = try #require(try await store.blobProperties(container: DataContract.photoContainer).first)
            let output = try await offPool {
                try PythonSDK.run(
                    "app_shapes.py",
                    [
                        "http://127.0.0.1:\(server.port(.table))", "http://127.0.0.1:\(server.port(.blob))",
                        Self.account, Self.key,
                        "/\(DataContract.photoContainer)/\(photo.name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? photo.name)",
                    ]
                )
            }
            let seen = try #require(try JSONSerialization.jsonObject(with: Data(output)) as? [String: Any])
            let statuses = try #require(seen["statuses"] as? [Int])
            #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses) \(seen["error"] ?? "")")
            #expect(seen["pages"] as? Int == 3, "101 events in pages of 40, followed by the continuation headers")
            #expect((seen["content_type"] as? String)?.hasPrefix("application/atom+xml") == true)
            #expect(
                seen["root_namespaces"] as? [String] == ["_default", "d", "m"],
                "every namespace the app's XPath needs sits on the root element"
            )
            let dates = try #require(seen["dates"] as? [String])
            #expect(dates.count == 101)
            #expect((seen["types"] as? [String])?.allSatisfy { $0 == "Edm.DateTime" } == true)

            let refused = dates.filter { Self.appParser.date(from: $0) == nil }
            #expect(
                refused == ["2026-05-04T18:30:00Z"],
                "only the whole second, served trimmed as Azure serves it, is refused"
            )
            #expect(dates.count - refused.count == 100, "every date of the default seed parses in the app")
            #expect(
                Self.appParser.date(from: "2026-05-04T18:30:00.0000001Z") != nil,
                "the parser is the app's: a tick past the second parses"
            )
            #expect(
                (seen["wrong_key"] as? [Any]).map { "\($0)" }
                    == #"[403, "{http://schemas.microsoft.com/ado/2007/08/dataservices/metadata}error"]"#
            )
            let photoSeen = try #require(seen["photo"] as? [Any])
            #expect(photoSeen.first as? Int == 200, "the photo by host name, anonymously: \(photoSeen)")
            #expect(photoSeen.dropFirst().first as? String == photo.contentType)
            #expect(photoSeen.last as? Int == photo.size)
            #expect(
                (seen["listing"] as? [Any]).map { "\($0)" }
                    == "\([200, "http://\(Self.account).blob.core.windows.net/"] as [Any])"
            )
        }
    }
}
