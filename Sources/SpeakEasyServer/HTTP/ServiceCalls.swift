import HTTPTypes
import NIOCore
import SpeakEasyProtocol

/// What a connection asks of its service, in the order a request meets them.
struct ServiceCalls: Sendable {
    /// Decides on a request from its head alone (credentials, declared length), before its body is
    /// read; the second argument is the client's IP address (a SAS's `sip` holds for some only).
    var admit: @Sendable (RequestHead, String?) async -> Admission
    /// The reply to an admitted request read whole; nil drops the connection instead (a fault).
    var respond: @Sendable (ServiceRequest, any Channel) async -> ServiceResponse?
    /// The service's error reply for a body that broke a bound as it came.
    var refuse: @Sendable (RequestHead, BodyRefusal) -> ServiceResponse
    /// The service's error reply for a head the connection refuses (nil: none could be read).
    var reject: @Sendable (RequestHead?, HeadRefusal) -> ServiceResponse
}

extension ServiceCalls {
    /// The calls to `service`, answered by the server `server` gives; none is made before it is there
    /// (the listeners accept nothing until then), so its absence only closes the connection.
    static func answering(
        _ service: StorageService,
        of server: @escaping @Sendable () -> StorageServer?
    ) -> ServiceCalls {
        ServiceCalls(
            admit: { head, sourceIP in
                await server().map { ServiceResponder(service: service, server: $0) }?.admit(head, from: sourceIP)
                    ?? .refused(nil)
            },
            respond: { request, channel in
                await server().map { ServiceResponder(service: service, server: $0) }?.respond(
                    to: request,
                    channel: channel
                )
            },
            refuse: { head, refusal in
                server().map { ServiceResponder(service: service, server: $0).refuse(head, refusal) }
                    ?? ServiceResponse(status: .serviceUnavailable)
            },
            reject: { head, refusal in
                server().map { ServiceResponder(service: service, server: $0).reject(head, refusal) }
                    ?? ServiceResponse(status: .serviceUnavailable)
            }
        )
    }
}
