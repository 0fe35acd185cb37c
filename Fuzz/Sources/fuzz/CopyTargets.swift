import SpeakEasyCore
import SpeakEasyFormats
import SpeakEasyModel

/// The copies that skip decoding, held to the paths that decode (differential): a query page copied
/// for the JSON output (``JSONPageCopier``) against the page read and formatted entity by entity, and
/// a stored object copied in one pass (``JSONWireSpelling``) against the scanner's copy. Run on every
/// input of the `json` target.
enum CopyTargets {
    static func check(_ bytes: [UInt8]) {
        checkPageCopy(bytes, layout: .feed)
        checkPageCopy(bytes, layout: .lines)
        checkWireSpelling(bytes)
    }

    static func decode(_ bytes: [UInt8]) throws -> [Entity] {
        var reader = try EntityFiles.reader(for: ByteInput(name: "page", bytes: bytes), format: .json)
        var entities: [Entity] = []
        while let entity = try reader.next() { entities.append(entity) }
        return entities
    }

    static func checkPageCopy(_ bytes: [UInt8], layout: JSONFormatter.Layout) {
        var expected: Result<[UInt8], any Error>
        var keys: [String] = []
        do {
            let entities = try decode(bytes)
            var formatter = JSONFormatter(layout: layout)
            var out: [UInt8] = []
            for entity in entities { try formatter.append(entity, into: &out) }
            expected = .success(out)
            keys = entities.flatMap { [$0.partitionKey, $0.rowKey] }
        } catch {
            expected = .failure(error)
        }
        var copier = JSONPageCopier(formatter: JSONFormatter(layout: layout))
        switch (Result { try copier.copy(page: bytes, decode: decode) }, expected) {
        case (.success(let page), .success(let out)):
            guard page.bytes == out else {
                fatalError(
                    "page copy: \(String(decoding: page.bytes, as: UTF8.self)) where the formatter wrote \(String(decoding: out, as: UTF8.self))"
                )
            }
            let copiedKeys = (0..<page.count).flatMap { [page.partitionKey(at: $0), page.rowKey(at: $0)] }
            guard copiedKeys == keys else {
                fatalError("page copy: keys \(copiedKeys), expected \(keys)")
            }
        case (.failure(let error), .failure(let expectedError)):
            guard "\(error)" == "\(expectedError)" else {
                fatalError("page copy failed with \(error), the reader with \(expectedError)")
            }
        case (let copied, let decoded):
            fatalError("page copy: \(copied), the reader and formatter: \(decoded)")
        }
    }

    static func checkWireSpelling(_ bytes: [UInt8]) {
        for annotated in [true, false] {
            bytes.withUnsafeBytes { raw in
                var onePass: [UInt8] = []
                guard JSONWireSpelling.appendWriterSpelled(raw, annotated: annotated, to: &onePass) else { return }
                var spelling = JSONWireSpelling()
                var scanned: [UInt8] = []
                do {
                    try spelling.appendScanned(raw, annotated: annotated, to: &scanned)
                } catch {
                    fatalError("wire spelling: the one pass copied what the scanner refuses: \(error)")
                }
                guard onePass == scanned else {
                    fatalError(
                        "wire spelling: \(String(decoding: onePass, as: UTF8.self)) where the scanner's path wrote \(String(decoding: scanned, as: UTF8.self))"
                    )
                }
            }
        }
    }
}
