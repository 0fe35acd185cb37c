import SpeakEasyProtocol

extension TableService {
    /// The Table service's part of deciding on a request from its head alone (``ServiceResponder/admit(_:)``):
    /// its credentials for the table its path names; tables have no public access, so a request
    /// without credentials is refused here. Nil for a batch under a SAS: the SAS must cover the table
    /// the batch's operations name, which only its body tells, so the body step checks it
    /// (``respond(to:path:)``, within the 4 MiB a batch may hold).
    func admit() throws -> RequestAuthentication? {
        do {
            let resource = try TableResourcePath(parsing: head.path)
            if resource == .batch, head.header("Authorization") == nil, SharedAccessSignature.isPresent(in: query) { return nil }
            return try Access(try authenticate(resource, batch: nil)).authentication
        } catch {
            throw Self.wireError(error)
        }
    }

    /// How the request authenticates for `resource`: a SAS must cover the table it reaches, for a
    /// batch the table its operations name (the account key signs a batch whatever table it names).
    func authenticate(_ resource: TableResourcePath, batch: TableBatchRequest?) throws(AuthorizationError) -> RequestAuthentication {
        let target: SASTarget =
            switch resource {
            case .tables: .service
            case .table(let name), .entities(let name), .entity(let name, _, _): .table(name)
            case .batch: batch?.operations.first.map { .table($0.table) } ?? .service
            }
        return try server.authenticator.authenticate(head, service: .table, target: target, now: exchange.now)
    }
}
