/// Azure's rules for table names: 3 to 63 letters and digits, starting with a letter; `tables` is
/// reserved.
package enum TableName {
    package static func check(_ name: String) throws(TableServiceError) {
        let bytes = Array(name.utf8)
        func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
        guard (3...63).contains(bytes.count), isLetter(bytes[0]),
            bytes.allSatisfy({ isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) }),
            name.lowercased() != "tables"
        else {
            throw TableServiceError(
                status: 400,
                code: "InvalidResourceName",
                "The specifed resource name contains invalid characters (table '\(name)')."
            )
        }
    }
}
