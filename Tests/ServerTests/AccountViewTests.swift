import Foundation
import SpeakEasyData
import SpeakEasyServer
import TestServer
import TestSupport
import Testing

/// `serve`'s browser view over plain HTTP: its routes, its refusals, its counts and paging against
/// the store's own, escaping, and the key kept out. (The pages as a browser renders them are
/// BrowserTests' AccountViewTests.)
@Suite("serve: the browser view over HTTP")
struct AccountViewTests {
    /// Runs `body` with a server of a seeded store (``ViewedStore``).
    static func withView(events: Int, _ body: (RunningServer) async throws -> Void) async throws {
        try await withRunningServer(prepare: { try await ViewedStore.make($0, events: events) }, body)
    }

    static func page(_ server: RunningServer, _ path: String) async throws -> HTTPReply {
        try await send("GET", "http://127.0.0.1:\(server.uiPort)\(path)")
    }

    @Test("every route answers a page, never with the key; a wrong route or parameter is a 404 or 400 page")
    func routes() async throws {
        try await Self.withView(events: 30) { server in
            let pages = [
                "/", "/table?name=events", "/entities?table=events&partition=Events",
                "/entities?table=hostile", "/container?name=speakers", "/validate",
            ]
            for path in pages {
                let reply = try await Self.page(server, path)
                #expect(reply.status == 200, "\(path): \(reply.text)")
                #expect(reply.header("Content-Type") == "text/html; charset=utf-8", "\(path)")
                #expect(reply.header("Content-Security-Policy")?.contains("default-src 'none'") == true)
                #expect(!reply.text.contains(DevelopmentAccount.key), "\(path) shows the account key")
                #expect(!reply.text.contains(String(DevelopmentAccount.key.prefix(16))), "\(path)")
            }
            for (path, status) in [
                ("/nothing-here", 404), ("/entities", 400), ("/entity?table=events&PartitionKey=Events", 400),
                ("/entity?table=events&PartitionKey=Events&RowKey=none", 404), ("/table?name=missing", 404),
                ("/entities?table=events&NextPartitionKey=%25%25%25", 400), ("/table?name=%C3%28", 400),
                ("/blob?container=speakers&name=none.jpg", 404), ("/container?name=none", 404),
            ] {
                let reply = try await Self.page(server, path)
                #expect(reply.status == status, "\(path): \(reply.text)")
                #expect(reply.text.hasPrefix("<!DOCTYPE html>"), "\(path): a page, not a bare status")
            }
            let post = try await send("POST", "http://127.0.0.1:\(server.uiPort)/entities?table=events")
            #expect(post.status == 405)
            let delete = try await send("DELETE", "http://127.0.0.1:\(server.uiPort)/")
            #expect(delete.status == 405)
        }
    }

    @Test("a $filter that does not parse is the Table service's 400 InvalidInput, shown with the form")
    func badFilter() async throws {
        try await Self.withView(events: 10) { server in
            let reply = try await Self.page(server, "/entities?table=events&%24filter=EventName+eq+%27x")
            #expect(reply.status == 400)
            #expect(reply.text.contains("400 InvalidInput: "), "\(reply.text)")
            #expect(reply.text.contains("value=\"EventName eq &#39;x\""), "the form keeps the filter, escaped")
        }
    }

    @Test("the first page's partition counts are the store's; paging reaches the last entity of a partition")
    func countsAndPaging() async throws {
        try await Self.withView(events: 250) { server in
            let store = try StorageLocation.local(path: server.store).open(readOnly: true)
            let counts = try await store.entityCounts(table: ViewedStore.table)
            let home = try await Self.page(server, "/").text
            for (partition, count) in counts {
                #expect(
                    home.contains("<tr data-partition=\"\(partition)\">") && home.contains("data-count=\"\(count)\""),
                    "\(partition): \(count)"
                )
            }
            var path: String? = "/entities?table=events&partition=Events"
            var rowKeys: [String] = []
            while let next = path {
                let text = try await Self.page(server, next).text
                rowKeys += Self.matches(of: "data-row-key=\"([^\"]*)\"", in: text)
                path = Self.matches(of: "id=\"next\" href=\"([^\"]*)\"", in: text).first.map {
                    $0.replacingOccurrences(of: "&amp;", with: "&")
                }
            }
            #expect(rowKeys.count == counts["Events"], "every entity once, over \(rowKeys.count / 100 + 1) pages")
            #expect(Set(rowKeys).count == rowKeys.count)
            #expect(rowKeys == rowKeys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        }
    }

    @Test("hostile keys, names and values are text: escaped in the page, and their links lead back to them")
    func hostileText() async throws {
        try await Self.withView(events: 5) { server in
            let grid = try await Self.page(server, "/entities?table=hostile").text
            #expect(!grid.contains(ViewedStore.script))
            #expect(grid.contains("&lt;script&gt;window.pwned=1&lt;/script&gt;"))
            #expect(!grid.contains("<img src=x"))
            #expect(grid.contains("\u{202E}txet desrever") && grid.contains("🎤 𝄞 👩🏽‍💻"))
            let link = try #require(Self.matches(of: "<a href=\"(/entity\\?[^\"]*)\"", in: grid).first)
            let entity = try await Self.page(server, link.replacingOccurrences(of: "&amp;", with: "&"))
            #expect(entity.status == 200, "\(link): \(entity.text)")
            #expect(entity.text.contains(Self.escaped(ViewedStore.hostileRow)), "the link names the entity")
        }
    }

    @Test("the view answers loopback hosts only, and forms from its own pages only")
    func refusals() async throws {
        try await withRunningServer { server in
            let rebound = try await RawHTTP.exchange(
                port: server.uiPort,
                Array("GET / HTTP/1.1\r\nHost: attacker.example:\(server.uiPort)\r\nConnection: close\r\n\r\n".utf8)
            )
            #expect(RawHTTP.statuses(rebound) == [421])
            let crossSite = try await RawHTTP.exchange(
                port: server.uiPort,
                Array(
                    ("POST /validate HTTP/1.1\r\nHost: 127.0.0.1:\(server.uiPort)\r\nOrigin: http://attacker.example\r\n"
                        + "Content-Length: 0\r\nConnection: close\r\n\r\n").utf8
                )
            )
            #expect(RawHTTP.statuses(crossSite) == [403])
        }
    }

    @Test("validate runs on POST and lists the planted date, linked to its entity, in validate's words")
    func validation() async throws {
        try await Self.withView(events: 20) { server in
            let before = try await Self.page(server, "/validate").text
            #expect(before.contains("validate has not run"))
            let after = try await send("POST", "http://127.0.0.1:\(server.uiPort)/validate")
            #expect(after.status == 200, "the redirect to the result is followed")
            let link = Self.escaped(
                "/entity?table=events&PartitionKey=Events&RowKey=\(ViewedStore.wholeSecondRowKey)"
            )
            #expect(after.text.contains("<a href=\"\(link)\">"), "\(after.text)")
            #expect(after.text.contains("lies on a whole second"))
            let entity = try await Self.page(server, link.replacingOccurrences(of: "&amp;", with: "&")).text
            #expect(entity.contains("dates.format"))
            #expect(entity.contains("Azure serves <code>2026-03-01T18:30:00Z</code>"))
        }
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }

    static func matches(of pattern: String, in text: String) -> [String] {
        let expression = try! NSRegularExpression(pattern: pattern)
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }
}
