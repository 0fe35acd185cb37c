import SpeakEasyData
import Testing

/// Chunk sizes that split every field, quote and line end across reads, and the default.
let csvChunkSizes = [1, 2, 3, 7, 64, CSVRecordScanner.defaultChunkSize]

/// The records of `bytes` as strings, read `chunkSize` bytes at a time.
func csvRecords(
    _ bytes: [UInt8],
    delimiter: UInt8 = UInt8(ascii: ","),
    chunkSize: Int = CSVRecordScanner.defaultChunkSize
) throws -> [[String]] {
    let scanner = CSVRecordScanner(
        ByteInput(name: "test.csv", bytes: bytes),
        delimiter: delimiter,
        chunkSize: chunkSize
    )
    var records: [[String]] = []
    while try scanner.nextRecord() {
        var record: [String] = []
        for field in scanner.fields { record.append(try scanner.string(field)) }
        records.append(record)
    }
    return records
}

func csvRecords(
    _ text: String,
    delimiter: UInt8 = UInt8(ascii: ","),
    chunkSize: Int = CSVRecordScanner.defaultChunkSize
) throws -> [[String]] {
    try csvRecords(Array(text.utf8), delimiter: delimiter, chunkSize: chunkSize)
}

/// Every entity of a CSV document.
func csvEntities(
    _ bytes: [UInt8],
    delimiter: UInt8 = UInt8(ascii: ","),
    chunkSize: Int = CSVRecordScanner.defaultChunkSize
) throws -> [Entity] {
    var reader = try CSVEntityReader(
        ByteInput(name: "test.csv", bytes: bytes),
        delimiter: delimiter,
        chunkSize: chunkSize
    )
    var entities: [Entity] = []
    while let entity = try reader.next() { entities.append(entity) }
    return entities
}

func csvEntities(
    _ text: String,
    delimiter: UInt8 = UInt8(ascii: ","),
    chunkSize: Int = CSVRecordScanner.defaultChunkSize
) throws -> [Entity] {
    try csvEntities(Array(text.utf8), delimiter: delimiter, chunkSize: chunkSize)
}

/// The error reading `bytes` fails with, or nil when it reads.
func csvReadError(
    _ bytes: [UInt8],
    delimiter: UInt8 = UInt8(ascii: ","),
    chunkSize: Int = CSVRecordScanner.defaultChunkSize
) -> FormatError? {
    do {
        _ = try csvEntities(bytes, delimiter: delimiter, chunkSize: chunkSize)
        return nil
    } catch let error as FormatError {
        return error
    } catch {
        Issue.record("unexpected error \(error)")
        return nil
    }
}

func csvReadError(_ text: String, chunkSize: Int = CSVRecordScanner.defaultChunkSize) -> FormatError? {
    csvReadError(Array(text.utf8), chunkSize: chunkSize)
}

/// The CSV text of `entities`.
func csvText(_ entities: [Entity], _ options: CSVFormatter.Options = .init()) throws -> String {
    String(decoding: try csvBytes(entities, options), as: UTF8.self)
}

func csvBytes(_ entities: [Entity], _ options: CSVFormatter.Options = .init()) throws -> [UInt8] {
    var formatter = try CSVFormatter(options)
    var out: [UInt8] = []
    formatter.begin(into: &out)
    for entity in entities { try formatter.append(entity, into: &out) }
    formatter.end(into: &out)
    return out
}
