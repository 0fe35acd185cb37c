/// The order of keys in a table: by their UTF-8 bytes, which is the order of their code points, as
/// the local account, `serve` and the `$filter` evaluator compare them. Swift's own `<` on strings
/// compares canonical equivalents equal (`é` and `e` + U+0301), which a table does not.
package enum KeyOrder {
    package static func precedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}
