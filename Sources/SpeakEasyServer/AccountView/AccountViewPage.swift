import HTTPTypes
import Mustache
import NIOCore
import NIOHTTP1
import SpeakEasyProtocol

/// A page of the browser view as a reply: a template rendered over its context, with the headers
/// every page carries.
enum AccountViewPage {
    /// The browser may load only what this server serves (its stylesheet and blobs, as images), runs
    /// no script at all, and sends forms only here; no other site may frame the page. The escaping
    /// of every value is what keeps the data's text from being markup; this is the second wall.
    static let contentSecurityPolicy =
        "default-src 'none'; img-src 'self'; style-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

    static let contentSecurityPolicyName = HTTPField.Name("Content-Security-Policy")!
    private static let referrerPolicyName = HTTPField.Name("Referrer-Policy")!

    /// What every page's frame shows: its title and the way back to where it came from.
    struct Frame {
        var title: String
        /// The links above the title, from the account down.
        var crumbs: [Link] = []
    }

    struct Link {
        var text: String
        var href: String
    }

    /// The page `template` renders over `context`, with `status`.
    static func render(
        _ template: AccountViewTemplates.Name,
        _ context: [String: Any],
        frame: Frame,
        status: HTTPResponse.Status = .ok
    ) -> ServiceResponse {
        var context = context
        context["title"] = frame.title
        context["crumbs"] = frame.crumbs
        let html = AccountViewTemplates.library.render(context, withTemplate: template.rawValue) ?? ""
        return reply(status, contentType: "text/html; charset=utf-8", body: ByteBuffer(string: html))
    }

    /// A page that says what went wrong, with its status.
    static func error(_ status: HTTPResponse.Status, _ message: String) -> ServiceResponse {
        // HTTPTypes leaves the phrase empty for a status made from its code alone; NIO knows them all.
        let phrase = HTTPResponseStatus(statusCode: Int(status.code)).reasonPhrase
        return render(.error, ["message": message], frame: Frame(title: "\(status.code) \(phrase)"), status: status)
    }

    /// The page for an error the account or a query threw, with the status and the words the Table
    /// service answers it with (a `$filter` that does not parse is 400 InvalidInput, as there).
    static func error(for error: any Error) -> ServiceResponse {
        guard let wire = TableService.wireError(error) as? TableServiceError else {
            return self.error(.internalServerError, "The page could not be made: \(error)")
        }
        return self.error(HTTPResponse.Status(code: wire.status), "\(wire.code): \(wire.message)")
    }

    /// A file of the binary's own (`/style.css`, `/favicon.svg`), which a browser may keep an hour.
    static func asset(_ text: String, contentType: String) -> ServiceResponse {
        var response = reply(.ok, contentType: contentType, body: ByteBuffer(string: text))
        response.headers[.cacheControl] = "max-age=3600"
        return response
    }

    /// A reply with the headers every answer of the view carries.
    static func reply(_ status: HTTPResponse.Status, contentType: String, body: ByteBuffer) -> ServiceResponse {
        var headers = HTTPFields()
        headers[.contentType] = contentType
        headers[.cacheControl] = "no-store"
        headers[.xContentTypeOptions] = "nosniff"
        headers[Self.contentSecurityPolicyName] = contentSecurityPolicy
        headers[Self.referrerPolicyName] = "no-referrer"
        return ServiceResponse(status: status, headers: headers, body: body)
    }
}
