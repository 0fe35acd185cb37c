package import SpeakEasyModel
package import SpeakEasyStorage

extension SharedAccessSignature {
    /// Checks the token for a request (the server side) and returns what it grants.
    ///
    /// In order: the service and the resource it covers, `se` present, the signature (compared in
    /// constant time), expiry after start, the time window, the client's address against `sip`
    /// (``SASIPRange``: 403 AuthorizationSourceIPMismatch outside it), the protocol. Every failure
    /// carries Azure's code and detail. A service SAS with `si` takes what it leaves out of start,
    /// expiry and permissions from that stored access policy (``StoredPolicyResolution``).
    ///
    /// - Parameters:
    ///   - target: the resource the request reaches, as the server routed it.
    ///   - sourceIP: the client's address, as its socket gives it; nil when unknown, which no `sip`
    ///     admits.
    ///   - isHTTPS: whether the request came over TLS (`spr=https` refuses it otherwise).
    ///   - policies: the stored access policies of the container (or table) the request reaches;
    ///     needed only when the token has `si`.
    package func verify(
        credentials: StorageCredentials,
        service: StorageService,
        target: SASTarget,
        now: EdmDateTime,
        sourceIP: String? = nil,
        isHTTPS: Bool,
        policies: [StoredAccessPolicy] = []
    ) throws(AuthorizationError) -> SASGrant {
        func fail(_ detail: String) -> AuthorizationError { AuthorizationError(.authenticationFailed, detail: detail) }
        guard let kind else { throw fail("The SAS has none of ss/srt (account), tn (table) or sr (blob).") }
        let resolved = try StoredPolicyResolution(self, policies: policies)
        switch kind {
        case .account:
            guard Set(services ?? "").contains(service.accountLetter) else {
                throw AuthorizationError(.authorizationServiceMismatch)
            }
        case .table:
            guard service == .table else { throw AuthorizationError(.authorizationServiceMismatch) }
            guard case .table(let name) = target, name.lowercased() == (tableName ?? "").lowercased() else {
                throw AuthorizationError(
                    .authorizationFailure,
                    detail: "The SAS is for the table '\(tableName ?? "")', not this resource."
                )
            }
        case .blob:
            guard service == .blob else { throw AuthorizationError(.authorizationServiceMismatch) }
        }

        let expiryDate: EdmDateTime
        if let expiryText = expiry, !expiryText.isEmpty {
            guard let parsed = SASTime.parse(expiryText) else {
                throw fail("se '\(expiryText.prefix(40))' is not a valid ISO 8601 time.")
            }
            expiryDate = parsed
        } else if let policyExpiry = resolved.policy?.expiry {
            expiryDate = policyExpiry
        } else {
            throw fail("se is mandatory. Cannot be empty")
        }
        var startDate = resolved.policy?.start
        if let start, !start.isEmpty {
            guard let parsed = SASTime.parse(start) else {
                throw fail("st '\(start.prefix(40))' is not a valid ISO 8601 time.")
            }
            startDate = parsed
        }

        var candidates = [try stringToSign(account: credentials.accountName, target: target)]
        if kind == .table, let version = SASVersion(version), version < .v2015_04_05 {
            // Older clients sign the table name as given, newer ones lower-cased; either is the table.
            candidates.append(
                try stringToSign(account: credentials.accountName, target: target, legacyTableCase: false)
            )
        }
        guard candidates.contains(where: { credentials.isValidSignature(signature, for: $0) }) else {
            throw fail("Signature did not match. String to sign used was \(candidates[0])")
        }

        if let startDate, expiryDate < startDate {
            throw fail(
                "Signed expiry time [\(HTTPDate.format(expiryDate))] has to be after signed start time [\(HTTPDate.format(startDate))]"
            )
        }
        if now > expiryDate || startDate.map({ now < $0 }) == true {
            throw fail(
                "Signature not valid in the specified time frame: Start [\(startDate.map(HTTPDate.format) ?? "")] - "
                    + "Expiry [\(HTTPDate.format(expiryDate))] - Current [\(HTTPDate.format(now))]"
            )
        }
        if let ipRange {
            guard let range = SASIPRange(ipRange) else {
                throw fail("sip '\(ipRange.prefix(40))' is not an IPv4 address or range (a.b.c.d or a.b.c.d-e.f.g.h).")
            }
            guard let sourceIP, range.contains(sourceIP) else {
                throw AuthorizationError(
                    .authorizationSourceIPMismatch,
                    detail: "Source IP \(sourceIP ?? "(unknown)") is not in the SAS's range \(ipRange)."
                )
            }
        }
        if let protocols {
            switch protocols {
            case "https": guard isHTTPS else { throw AuthorizationError(.authorizationProtocolMismatch) }
            case "https,http", "http,https": break
            default: throw fail("spr '\(protocols.prefix(20))' is not https or https,http.")
            }
        }
        return SASGrant(resolved.effective)
    }
}
