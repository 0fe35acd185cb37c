import HTTPTypes
import NIOCore
import SpeakEasyCore
import SpeakEasyProtocol
import SpeakEasyStorage

/// The read-only browser view of the served account (`serve`'s UI): its tables, partitions and
/// entities, its containers and photos, and a `validate` run on demand, as HTML pages on a loopback
/// port of its own, never on the Azure ports.
///
/// It reads the account through the same seam as the services (``StorageAccount``), and changes
/// nothing: every page is a GET, and the one POST runs `validate`, which only reads. It needs no
/// credentials, so it listens on loopback only, answers only requests that name a loopback host (a
/// web page elsewhere cannot reach it through a DNS name rebound to 127.0.0.1), and never shows the
/// account key. The pages are Mustache templates built into the binary (``AccountViewTemplates``),
/// every value from the data escaped by them; they work without JavaScript and load nothing from
/// elsewhere, which the Content-Security-Policy of every page also says to the browser.
package struct AccountView: Sendable {
    /// Next to Azurite's ports (10000-10002), which Blob, Queue and Table take.
    package static let developmentPort = 10003
    /// Loopback only, whatever `--host` the services listen on: the view answers without credentials.
    package static let host = "127.0.0.1"
    /// One person browses: a few tabs and an image per blob on a gallery page.
    static let maxConnections = 64
    /// The only body is the validate form's, which has no fields.
    static let maxBodySize = 4096
    static let serverHeader = "SpeakEasy-serve-ui"
    /// Rows of a grid, partitions or blobs a page: a page costs the same at a million rows.
    static let pageSize = 100
    /// Partitions listed per table on the first page; more are a link away.
    static let partitionsOnHome = 20

    let server: StorageServer
    let head: RequestHead
    /// The query's parameters, a form's `+` read as a space.
    let query: QueryItems

    var account: any StorageAccount { server.account }

    /// The page for the request; whatever goes wrong is a page too (400, 404, 405 or 500), never a
    /// dropped connection.
    static func respond(to head: RequestHead, server: StorageServer) async -> ServiceResponse {
        let query: QueryItems
        do {
            query = try QueryItems(query: head.query.replacing("+", with: "%20"))
        } catch {
            return AccountViewPage.error(.badRequest, "The query string cannot be read: \(error).")
        }
        let view = AccountView(server: server, head: head, query: query)
        do {
            return try await view.route()
        } catch let error as AccountViewError {
            return AccountViewPage.error(error.status, error.message)
        } catch {
            return AccountViewPage.error(for: error)
        }
    }

    private func route() async throws -> ServiceResponse {
        let reads = head.method == "GET" || head.method == "HEAD"
        switch head.path {
        case "/" where reads: return try await home()
        case "/table" where reads: return try await partitions()
        case "/entities" where reads: return try await entities()
        case "/entity" where reads: return try await entity()
        case "/container" where reads: return try await container()
        case "/blob" where reads: return try await blob()
        case "/validate" where reads: return validationPage()
        case "/validate" where head.method == "POST": return await runValidation()
        case "/style.css" where reads:
            return AccountViewPage.asset(AccountViewStyle.css, contentType: "text/css; charset=utf-8")
        case "/favicon.svg" where reads:
            return AccountViewPage.asset(AccountViewStyle.icon, contentType: "image/svg+xml")
        case "/", "/table", "/entities", "/entity", "/container", "/blob", "/style.css", "/favicon.svg":
            return AccountViewPage.error(.methodNotAllowed, "This page is read-only: it answers GET and HEAD only.")
        case "/validate":
            return AccountViewPage.error(.methodNotAllowed, "Validation is shown by GET and run by POST.")
        default:
            return AccountViewPage.error(.notFound, "There is no page at this address.")
        }
    }

    /// A query parameter that the page needs: 400 when it is missing.
    func required(_ name: String) throws(AccountViewError) -> String {
        guard let value = query[name] else {
            throw AccountViewError(.badRequest, "The query parameter '\(name)' is missing.")
        }
        return value
    }

    /// An optional parameter; empty is the same as missing (an empty form field).
    func optional(_ name: String) -> String? {
        query[name].flatMap { $0.isEmpty ? nil : $0 }
    }
}

/// A page that cannot be shown, with its status: a missing parameter, a table that is not there.
struct AccountViewError: Error {
    let status: HTTPResponse.Status
    let message: String

    init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = message
    }
}
