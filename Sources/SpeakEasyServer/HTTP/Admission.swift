/// A service's decision on a request from its head alone, before a byte of its body is read: so that
/// a client without the right to send a body, or with one larger than the service takes, is answered
/// at once and holds no memory.
enum Admission: Sendable {
    /// Read the body, then answer; what was decided goes with the request to the body step.
    case admitted(AdmittedRequest)
    /// Answer this refusal and close (nil: close without a reply).
    case refused(ServiceResponse?)
}
