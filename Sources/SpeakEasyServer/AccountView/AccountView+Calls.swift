import HTTPTypes
import NIOCore
import SpeakEasyModel
import SpeakEasyProtocol

/// The browser view on the connection machinery the services use (``ServiceListener``: the same
/// bounds on connections, heads, bodies and idle time), with its own decisions on a head.
extension ServiceCalls {
    static func accountView(of server: @escaping @Sendable () -> StorageServer?) -> ServiceCalls {
        ServiceCalls(
            admit: { head, _ in
                guard let server = server() else { return .refused(nil) }
                let started = ContinuousClock.now
                if let refusal = AccountView.refusal(of: head) {
                    AccountView.log(head, refusal, server: server, started: started)
                    return .refused(refusal)
                }
                let exchange = Exchange(head: head, query: QueryItems([]), requestID: "", now: EdmDateTime.now())
                return .admitted(AdmittedRequest(exchange: exchange, path: .root, authentication: nil))
            },
            respond: { request, _ in
                guard let server = server() else { return nil }
                let started = ContinuousClock.now
                let response = await AccountView.respond(to: request.head, server: server)
                AccountView.log(request.head, response, server: server, started: started)
                return response
            },
            refuse: { head, refusal in
                switch refusal {
                case .tooLarge: AccountViewPage.error(.contentTooLarge, "The view takes no request body.")
                case .busy: AccountViewPage.error(.serviceUnavailable, "The server is busy; reload in a moment.")
                case .tooSlow: AccountViewPage.error(.requestTimeout, "The request's body came too slowly.")
                }
            },
            reject: { head, refusal in
                let started = ContinuousClock.now
                let response =
                    switch refusal {
                    case .malformed: AccountViewPage.error(.badRequest, "The request is not HTTP.")
                    case .host: AccountViewPage.error(.badRequest, "An HTTP/1.1 request names one Host.")
                    case .tooLarge:
                        AccountViewPage.error(
                            .requestHeaderFieldsTooLarge,
                            "The request's header fields are too large."
                        )
                    }
                if let server = server() {
                    AccountView.log(head ?? .unread, response, server: server, started: started)
                }
                return response
            }
        )
    }
}

extension AccountView {
    /// Why the view answers a head without reading on: a host that is not loopback (a page elsewhere
    /// reaching 127.0.0.1 through a name it rebound: 421), a form posted from another site (403), or
    /// a body larger than the validate form's (413).
    static func refusal(of head: RequestHead) -> ServiceResponse? {
        if let host = head.header("Host"), !isLoopback(host: host) {
            return AccountViewPage.error(
                .misdirectedRequest,
                "The view answers requests to 127.0.0.1 or localhost only."
            )
        }
        if head.method == "POST" {
            if let site = head.header("Sec-Fetch-Site"), site != "same-origin", site != "none" {
                return AccountViewPage.error(.forbidden, "The view takes forms from its own pages only.")
            }
            if let origin = head.header("Origin"), origin != "http://" + (head.header("Host") ?? "") {
                return AccountViewPage.error(.forbidden, "The view takes forms from its own pages only.")
            }
        }
        if let length = head.header("Content-Length"), Int(length).map({ $0 > maxBodySize }) ?? true {
            return AccountViewPage.error(.contentTooLarge, "The view takes no request body.")
        }
        return nil
    }

    /// `127.0.0.1`, any `127.x.y.z`, `localhost` or `[::1]`, with or without a port.
    static func isLoopback(host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("[") {
            return name == "[::1]" || name.hasPrefix("[::1]:")
        }
        if let colon = name.lastIndex(of: ":") { name = String(name[..<colon]) }
        if name == "localhost" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// The request's line on stderr, as the services log theirs.
    static func log(
        _ head: RequestHead,
        _ response: ServiceResponse,
        server: StorageServer,
        started: ContinuousClock.Instant
    ) {
        guard server.configuration.logRequests else { return }
        RequestLog.write(
            "ui "
                + RequestLog.line(
                    method: head.method,
                    path: head.path,
                    query: head.query,
                    status: Int(response.status.code),
                    milliseconds: ServiceResponder.milliseconds(since: started)
                )
        )
    }
}

extension ResourcePath {
    /// The path the view's requests are admitted with: the services' paths mean nothing to it.
    static let root = try! ResourcePath("/")
}
