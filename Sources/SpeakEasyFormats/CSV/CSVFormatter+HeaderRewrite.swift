package import SpeakEasyCore

/// Completing a CSV whose columns grew while it was written.
///
/// Without given columns the formatter cannot know every property before the last entity, and it
/// never holds entities back (memory stays flat). In the rare case that a later entity brought a new
/// property, the output is copied once more: the final header first, then every row verbatim, short
/// rows padded with empty fields (at the end, or in the spreadsheet layout just before the keys,
/// which stay last).
extension CSVFormatter {
    /// Copies `input` — a CSV this formatter wrote — into `sink` with the final header and padded
    /// rows. `sink` is handed the output buffer whenever it holds about a chunk, and at the end; it
    /// must empty the buffer (``OutputFile/drain(_:)`` does).
    package func rewriteWithFinalHeader(
        _ input: ByteInput,
        into sink: (inout [UInt8]) throws(FormatError) -> Void
    ) throws(FormatError) {
        let scanner = CSVRecordScanner(input, delimiter: options.delimiter)
        let width = fieldCount
        var out: [UInt8] = []
        out.reserveCapacity(CSVRecordScanner.defaultChunkSize + 4096)
        appendHeader(into: &out)
        guard try scanner.nextRecord() else {
            try sink(&out)
            return
        }
        while try scanner.nextRecord() {
            guard scanner.fields.count <= width else {
                throw scanner.error(
                    "this row has \(scanner.fields.count) fields, more than the final header's \(width)",
                    line: scanner.recordLine,
                    column: scanner.recordColumn
                )
            }
            let count = scanner.fields.count
            let kept = count - fixedTrailingColumns
            if count == width || fixedTrailingColumns == 0 || kept < 0 {
                try scanner.withRecordBytes { bytes throws(FormatError) in out.append(contentsOf: bytes) }
                for _ in count..<width { out.append(options.delimiter) }
            } else {
                try scanner.withRecordBytes(splitBefore: kept) { head, tail throws(FormatError) in
                    out.append(contentsOf: head)
                    // The missing fields are empty: a delimiter before each, unless it is the row's first.
                    for missing in 0..<(width - count) where kept > 0 || missing > 0 { out.append(options.delimiter) }
                    out.append(options.delimiter)
                    out.append(contentsOf: tail)
                }
            }
            out.append(0x0D)
            out.append(0x0A)
            if out.count >= CSVRecordScanner.defaultChunkSize { try sink(&out) }
        }
        try sink(&out)
    }

    /// Rewrites the CSV file at `inputPath` into `outputPath` (written under a temporary name and
    /// renamed when complete; the two paths must differ).
    package func rewriteWithFinalHeader(inputPath: String, outputPath: String) throws(FormatError) {
        let input: ByteInput
        let output: OutputFile
        do {
            input = try ByteInput(path: inputPath)
            output = try OutputFile(path: outputPath)
        } catch { throw FormatError(error) }
        // A failure leaves no output: OutputFile removes its temporary file unless committed.
        let sink: (inout [UInt8]) throws(FormatError) -> Void = { buffer throws(FormatError) in
            do throws(FileError) { try output.drain(&buffer) } catch { throw FormatError(error) }
        }
        do {
            try rewriteWithFinalHeader(input, into: sink)
        } catch {
            // The input is the output's hidden temporary file: the user knows the output's name.
            var named = error
            if named.source == inputPath { named.source = outputPath }
            throw named
        }
        do { try output.commit() } catch { throw FormatError(error) }
    }
}
