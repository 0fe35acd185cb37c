import SpeakEasyProtocol
import SpeakEasyStorage

extension BlobService {
    /// The Blob service's part of deciding on a request from its head alone (``ServiceResponder/admit(_:from:)``):
    /// its credentials for the resource its path names, and for a request without any, the container's
    /// public access. The body step (``respond(to:path:)``) takes the result from the request, and asks
    /// a SAS for each operation's permission.
    func admit(_ path: ResourcePath) async throws -> RequestAuthentication {
        do {
            let blobName = try path.rest.map(BlobName.normalize)
            let target: SASTarget =
                path.first.map { container in
                    blobName.map { .blob(container: container, name: $0) } ?? .container(container)
                } ?? .service
            // A SAS that names a stored access policy is checked against its container's policies.
            var policies: [StoredAccessPolicy] = []
            if RequestAuthenticator.namesStoredPolicy(head), let container = path.first {
                policies = try await account.containerPolicies(container) ?? []
            }
            let authentication = try server.authenticator.authenticate(
                head,
                service: .blob,
                target: target,
                now: exchange.now,
                sourceIP: exchange.sourceIP,
                policies: policies
            )
            if authentication == .anonymous {
                try await checkAnonymous(path, method: head.method, restype: query["restype"], comp: query["comp"])
            }
            // Put Blob and Put Block take a declared length (Azure's "Content-Length: Required"): a
            // chunked body is 411, before it is read.
            if head.method == "PUT", path.rest != nil, query["comp"] == nil || query["comp"] == "block",
                head.header("Content-Length") == nil, head.header("Transfer-Encoding") != nil
            {
                throw BlobServiceError.missingContentLength
            }
            return authentication
        } catch {
            throw Self.wireError(error)
        }
    }

    /// How `request` authenticated: as ``admit(_:)`` decided from its head before its body was read
    /// (the connection hands that on); decided now only if it was not.
    func authentication(of request: ServiceRequest, path: ResourcePath) async throws -> RequestAuthentication {
        if let authentication = request.authentication { return authentication }
        return try await admit(path)
    }
}
