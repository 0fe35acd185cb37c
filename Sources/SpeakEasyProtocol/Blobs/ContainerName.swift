/// Azure's rules for container names: 3 to 63 characters of lower-case letters, digits and hyphens,
/// starting and ending with a letter or digit, with no two hyphens in a row. `$root`, `$logs` and
/// `$web` are Azure's own and not served here. A name of the wrong length is OutOfRangeInput, one of
/// the wrong characters InvalidResourceName, as Azure and Azurite answer.
package enum ContainerName {
    package static func check(_ name: String) throws(BlobServiceError) {
        let bytes = Array(name.utf8)
        guard (3...63).contains(bytes.count) else { throw .containerNameLength(name) }
        let allowed = bytes.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
        guard (3...63).contains(bytes.count), allowed, bytes.first != 0x2D, bytes.last != 0x2D, !name.contains("--")
        else {
            throw .invalidContainerName(name)
        }
    }
}
