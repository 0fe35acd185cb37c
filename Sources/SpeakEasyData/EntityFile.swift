import SpeakEasyConversion
import SpeakEasyCore
public import SpeakEasyFormats
public import SpeakEasyModel

/// Entity files in any of the four formats: Atom, JSON, NDJSON and CSV, read and written as the
/// tools read and write them, with nothing lost (Int64 stays exact, a date keeps its 100 ns).
///
/// ```swift
/// for try await entity in EntityFile.entities(at: "events.atom") {
///     print(entity.partitionKey, entity.rowKey)
/// }
/// try await EntityFile.convert(["events.atom"], to: "events.ndjson", as: .ndjson)
/// ```
public enum EntityFile {
    /// The entities of a file, as an asynchronous sequence.
    ///
    /// - Parameters:
    ///   - path: the file; `-` reads standard input.
    ///   - format: the file's format; nil (the default) takes it from the extension (`.atom`/`.xml`,
    ///     `.json`, `.ndjson`/`.jsonl`, `.csv`/`.tsv`), else from the first bytes.
    ///   - delimiter: CSV's field separator.
    public static func entities(
        at path: String,
        format: DataFormat? = nil,
        delimiter: UInt8 = UInt8(ascii: ",")
    ) -> EntityFileEntities {
        EntityFileEntities(path: path, options: EntityFiles.ReadOptions(format: format, delimiter: delimiter))
    }

    /// Writes entities to a file: under a temporary name, renamed to `path` once complete, so that a
    /// failure leaves nothing behind and never half a file.
    ///
    /// - Parameters:
    ///   - entities: any asynchronous sequence of entities: ``Store/entities(in:partition:filter:)``,
    ///     ``entities(at:format:delimiter:)``, or your own.
    ///   - path: the file to write; `-` writes standard output.
    ///   - format: the format and its choices.
    /// - Returns: how many entities were written.
    /// - Throws: ``FormatError`` when the file cannot be written or the format cannot hold an entity;
    ///   whatever `entities` throws.
    @discardableResult
    public static func write(
        _ entities: some AsyncSequence<Entity, some Error>,
        to path: String,
        as format: OutputFormat
    ) async throws -> Int {
        try await export(
            [.entities { each in for try await entity in entities { try each(entity) } }],
            to: path,
            as: format
        )
    }

    /// Writes an array of entities to a file, as a sequence of them is written: under a temporary name,
    /// renamed to `path` once complete.
    ///
    /// ```swift
    /// try await EntityFile.write([talk, keynote], to: "talks.json", as: .json)
    /// ```
    ///
    /// - Returns: how many entities were written.
    /// - Throws: ``FormatError`` when the file cannot be written or the format cannot hold an entity.
    @discardableResult
    public static func write(_ entities: [Entity], to path: String, as format: OutputFormat) async throws -> Int {
        try await export([.entities { each in for entity in entities { try each(entity) } }], to: path, as: format)
    }

    /// Converts files into one, in any format: the entities of each file in turn.
    ///
    /// - Returns: how many entities were written.
    /// - Throws: ``FormatError`` naming the file, line and field of anything that cannot be read, or
    ///   when the output cannot be written.
    @discardableResult
    public static func convert(_ inputs: [String], to path: String, as format: OutputFormat) async throws -> Int {
        try await export(inputs.map { .file($0) }, to: path, as: format)
    }

    /// Runs `export`'s loop from `sources` into the file at `path`.
    static func export(_ sources: [Exporter.Source], to path: String, as format: OutputFormat) async throws -> Int {
        // Written under a temporary name and renamed over the target: an output that is the store or
        // an input would replace what is being read (a store's file by JSON), so it is refused first.
        for source in sources {
            let (role, read): (String, String?) =
                switch source {
                case .file(let input): ("the input", input)
                case .store(let account, _, _): ("the store", account.address)
                case .entities: ("", nil)
                }
            if let read, path != "-", FileSystem.isSameFile(read, path) {
                throw FormatError(
                    source: path,
                    reason: "is the same file as \(role) \(read); write to another file",
                    kind: .usage
                )
            }
        }
        let output: OutputFile
        do { output = try OutputFile(path: path) } catch { throw FormatError(error) }
        return try await Exporter(writeOptions: format.writeOptions).run(sources, to: output)
    }
}
