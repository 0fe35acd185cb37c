/// Why a request is not let through: Azure's error code, its message, and the detail Azure adds
/// for authentication failures (`AuthenticationErrorDetail`), ready for an error body.
///
/// One type for Shared Key and SAS, so the server turns any of them into a response the same way
/// (the Table service as `odata.error` JSON, the Blob service as XML). Nothing in it is secret: the
/// detail may hold a string-to-sign, as Azure's does, never a key.
///
/// The codes are Azure's, not Azurite's: Azurite answers AuthorizationFailure where Azure says
/// AuthenticationFailed (a bad SAS signature or time), and the SDKs map both onto the same 403.
package struct AuthorizationError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Code: String, Sendable, CaseIterable {
        /// A signature that does not match, a stale date, a SAS outside its time window.
        case authenticationFailed = "AuthenticationFailed"
        /// An `Authorization` header that is not `SharedKey account:signature` (or Lite).
        case invalidAuthenticationInfo = "InvalidAuthenticationInfo"
        /// A valid SAS that does not reach the resource (another table, a key outside its range).
        case authorizationFailure = "AuthorizationFailure"
        case authorizationPermissionMismatch = "AuthorizationPermissionMismatch"
        case authorizationResourceTypeMismatch = "AuthorizationResourceTypeMismatch"
        case authorizationServiceMismatch = "AuthorizationServiceMismatch"
        case authorizationProtocolMismatch = "AuthorizationProtocolMismatch"
        case authorizationSourceIPMismatch = "AuthorizationSourceIPMismatch"

        /// Azure's message for the code, the first line of its error body.
        package var message: String {
            switch self {
            case .authenticationFailed:
                "Server failed to authenticate the request. Make sure the value of Authorization header is formed correctly including the signature."
            case .invalidAuthenticationInfo:
                "Authentication information is not given in the correct format. Check the value of Authorization header."
            case .authorizationFailure: "This request is not authorized to perform this operation."
            case .authorizationPermissionMismatch:
                "This request is not authorized to perform this operation using this permission."
            case .authorizationResourceTypeMismatch:
                "This request is not authorized to perform this operation using this resource type."
            case .authorizationServiceMismatch:
                "This request is not authorized to perform this operation using this service."
            case .authorizationProtocolMismatch:
                "This request is not authorized to perform this operation using this protocol."
            case .authorizationSourceIPMismatch:
                "This request is not authorized to perform this operation using this source IP."
            }
        }

        /// The status Azure answers with: 400 for a header it cannot read, 403 for everything else.
        package var httpStatus: Int { self == .invalidAuthenticationInfo ? 400 : 403 }
    }

    package let code: Code
    /// What exactly failed (Azure's `AuthenticationErrorDetail`), e.g. "Signature did not match.
    /// String to sign used was …"; empty when Azure gives none.
    package let detail: String

    package init(_ code: Code, detail: String = "") {
        self.code = code
        self.detail = detail
    }

    package var message: String { code.message }
    package var httpStatus: Int { code.httpStatus }

    package var description: String {
        detail.isEmpty ? "\(code.rawValue): \(message)" : "\(code.rawValue): \(message) \(detail)"
    }
}
