import SpeakEasyProtocol
import SpeakEasyStorage

extension TableService {
    /// The Table service's part of deciding on a request from its head alone (``ServiceResponder/admit(_:from:)``):
    /// its credentials for the table its path names (the account itself for a request of the
    /// service's properties); tables have no public access, so a request without credentials is
    /// refused here. Nil for a batch under a SAS: the SAS must cover the table the batch's operations
    /// name, which only its body tells, so the body step checks it (``respond(to:)``, within the
    /// 4 MiB a batch may hold).
    func admit() async throws -> RequestAuthentication? {
        do {
            if path.first == nil { return try Access(try await authenticate(target: .service)).authentication }
            let resource = try TableResourcePath(parsing: head.path)
            if resource == .batch, head.header("Authorization") == nil, SharedAccessSignature.isPresent(in: query) {
                return nil
            }
            return try Access(try await authenticate(resource, batch: nil)).authentication
        } catch {
            throw Self.wireError(error)
        }
    }

    /// How the request authenticates for `resource`: a SAS must cover the table it reaches, for a
    /// batch the table its operations name (the account key signs a batch whatever table it names).
    func authenticate(_ resource: TableResourcePath, batch: TableBatchRequest?) async throws -> RequestAuthentication {
        let target: SASTarget =
            switch resource {
            case .tables: .service
            case .table(let name), .entities(let name), .entity(let name, _, _): .table(name)
            case .batch: batch?.operations.first.map { .table($0.table) } ?? .service
            }
        return try await authenticate(target: target)
    }

    /// How the request authenticates for `target`; a SAS that names a stored access policy (`si`) is
    /// checked against its table's policies.
    func authenticate(target: SASTarget) async throws -> RequestAuthentication {
        var policies: [StoredAccessPolicy] = []
        if RequestAuthenticator.namesStoredPolicy(head), case .table(let name) = target {
            policies = try await account.tablePolicies(name) ?? []
        }
        return try server.authenticator.authenticate(
            head,
            service: .table,
            target: target,
            now: exchange.now,
            sourceIP: exchange.sourceIP,
            policies: policies
        )
    }
}
