/// Levenshtein distance over Unicode scalars, for "did you mean" hints.
enum NameDistance {
    static func between(_ a: String, _ b: String) -> Int {
        let x = Array(a.unicodeScalars)
        let y = Array(b.unicodeScalars)
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        var previous = Array(0...y.count)
        var current = [Int](repeating: 0, count: y.count + 1)
        for i in 1...x.count {
            current[0] = i
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[y.count]
    }

    /// The candidate nearest to `name` (ties: the first), nil when there is none.
    static func nearest(to name: String, among candidates: some Sequence<String>) -> String? {
        var best: (String, Int)?
        for candidate in candidates {
            let distance = between(name, candidate)
            if best == nil || distance < best!.1 { best = (candidate, distance) }
        }
        return best?.0
    }
}
