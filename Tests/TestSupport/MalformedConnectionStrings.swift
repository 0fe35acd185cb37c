/// Every way a connection string can be malformed, each around a known secret, with the setting the
/// error must name: no message, log or report may show any piece of the secret.
package enum MalformedConnectionStrings {
    /// The secret: no output may show any 6-character piece of it.
    package static let secret = "c2VjcmV0a2V5c2VjcmV0a2V5"

    /// Each form: what is wrong, the connection string, and the setting its error names.
    package static let all: [(form: String, text: String, setting: String)] = [
        ("no '='", "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey:\(secret)", "AccountKey"),
        ("no '=' but the key's padding", "AccountName=acct;AccountKey:\(secret)==", "AccountKey"),
        ("no '=', no known name", "AccountName=acct;\(secret)", "setting 2"),
        ("an unknown key", "AccountName=acct;AcountKey=\(secret)", "setting 2"),
        ("an unknown key that is the secret", "AccountName=acct;\(secret)=x", "setting 2"),
        ("a repeated key", "AccountName=acct;AccountKey=\(secret);AccountKey=\(secret)", "AccountKey"),
        ("an empty value", "AccountName=acct;AccountKey=;SharedAccessSignature=sig=\(secret)", "AccountKey"),
        ("a ';' inside the key", "AccountName=acct;AccountKey=\(secret.prefix(8));\(secret.dropFirst(8))", "setting 3"),
        ("a ';' inside the key, then '='", "AccountName=acct;AccountKey=c2Vj;\(secret)==", "setting 3"),
        (
            "a SAS that is no URL query", "AccountName=acct;SharedAccessSignature=sv=x&sig=\(secret) \(secret)",
            "SharedAccessSignature"
        ),
        ("a bad protocol", "DefaultEndpointsProtocol=\(secret);AccountName=acct", "DefaultEndpointsProtocol"),
    ]

    /// Whether `text` holds any 6-character piece of the secret.
    package static func leaks(_ text: String) -> Bool {
        let secret = Array(Self.secret)
        return (0...(secret.count - 6)).contains { text.contains(String(secret[$0..<$0 + 6])) }
    }
}
