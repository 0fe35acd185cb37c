/// A word of a command line the user can paste into a POSIX shell: as it is when the shell leaves it
/// so, else in single quotes.
package enum ShellWord {
    package static func quoted(_ word: String) -> String {
        let plain =
            !word.isEmpty
            && word.utf8.allSatisfy { byte in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                    || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || "-_./,:=+@%".utf8.contains(byte)
            }
        return plain ? word : "'" + word.replacing("'", with: "'\\''") + "'"
    }
}
