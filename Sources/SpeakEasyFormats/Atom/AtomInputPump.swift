internal import CLibXML2
import SpeakEasyCore

/// Feeds libxml2's streaming reader from a ``ByteInput`` and collects what goes wrong on the way.
///
/// libxml2 pulls bytes through a C callback (`xmlReaderForIO`) and reports errors through another
/// (`xmlTextReaderSetStructuredErrorHandler`); this object is the context both receive. It reads the
/// input in large chunks (few system calls, memory bounded by `chunkSize`), screens the prolog for a
/// DOCTYPE (``DoctypeScanner``) and every tag for what libxml2 handles badly (``XMLTagScreen``:
/// too many attributes, lines past 65,535, an unterminated CDATA section), and keeps the first
/// error, because libxml2 goes on reporting follow-up errors after the first one, and only the
/// first is the user's problem.
final class AtomInputPump {
    /// The first problem found; once set, the callbacks refuse further input.
    enum Failure {
        case input(FileError)
        case doctype(line: Int, column: Int)
        case xml(message: String, line: Int, column: Int)
    }

    private let input: ByteInput
    private let origin: TextOrigin
    // Touched on every read callback, by the one reader that owns the pump: no exclusivity checks.
    private let buffer: UnsafeMutableRawBufferPointer
    @exclusivity(unchecked) private var start = 0
    @exclusivity(unchecked) private var end = 0
    @exclusivity(unchecked) private var atEnd = false
    @exclusivity(unchecked) private var doctype = DoctypeScanner()
    @exclusivity(unchecked) private var tags = XMLTagScreen()
    @exclusivity(unchecked) private(set) var failure: Failure?
    /// The parser, as libxml2's first parser or namespace error names it: its partly built document
    /// holds what a failing read parsed but never handed out (``AtomTreeReplay``).
    @exclusivity(unchecked) private(set) var failureParser: UnsafeMutablePointer<xmlParserCtxt>?
    /// Whether the failure is an error of libxml2's parser after which it builds no more nodes (a fatal
    /// one, or a namespace error, after which ``record(_:)`` stops it): every node built came before it.
    @exclusivity(unchecked) private(set) var failureStoppedParsing = false

    /// `chunkSize` bounds both our buffer and how much one callback hands libxml2 (tests use a few bytes
    /// to split every token across reads).
    init(input: ByteInput, chunkSize: Int, origin: TextOrigin) {
        self.input = input
        self.origin = origin
        buffer = .allocate(byteCount: max(1, chunkSize), alignment: 16)
    }

    deinit { buffer.deallocate() }

    /// Copies up to `count` bytes to `destination`; 0 at the end, -1 when the input failed or was refused.
    ///
    /// A tag with too many attributes ends the input for libxml2 inside it: libxml2 still reports
    /// the errors it finds before that tag (they come first in the document), and the rest of what
    /// it reports is a consequence of the cut (see ``record(_:)``).
    func read(into destination: UnsafeMutableRawPointer, count: Int) -> Int32 {
        if failure != nil { return -1 }
        if tags.refusedTagAt != nil { return 0 }
        let length = readUnscreened(into: destination, count: count)
        guard length > 0 else { return length }
        return Int32(tags.scan(UnsafeRawBufferPointer(start: destination, count: Int(length))))
    }

    private func readUnscreened(into destination: UnsafeMutableRawPointer, count: Int) -> Int32 {
        if start == end, doctype.isDone, !atEnd {
            // Past the prolog nothing needs screening: read straight into libxml2's buffer, which
            // saves a copy and keeps the bytes in the cache libxml2 reads them from.
            do {
                let length = try input.read(into: UnsafeMutableRawBufferPointer(start: destination, count: count))
                if length == 0 { atEnd = true }
                return Int32(length)
            } catch {
                failure = .input(error)
                return -1
            }
        }
        if start == end {
            if atEnd { return 0 }
            do {
                end = try input.read(into: buffer)
            } catch {
                failure = .input(error)
                return -1
            }
            start = 0
            if end == 0 {
                atEnd = true
                return 0
            }
        }
        let length = min(count, end - start)
        let bytes = UnsafeRawBufferPointer(rebasing: buffer[start..<(start + length)])
        if !doctype.isDone, !doctype.scan(bytes), let at = doctype.doctypeAt {
            failure = .doctype(line: at.line, column: at.column)
            return -1
        }
        destination.copyMemory(from: bytes.baseAddress!, byteCount: length)
        start += length
        return Int32(length)
    }

    /// Whether a start tag was at line 65,535 or later, where libxml2 keeps no element lines.
    var hasLargeLines: Bool { tags.hasLargeLines }

    /// The line of the next start tag from line 65,535 on, in document order (``XMLTagScreen``).
    func nextLargeLine() -> Int? { tags.nextLargeLine() }

    /// Keeps libxml2's first error (warnings are not failures); the rest are consequences of it.
    func record(_ error: UnsafePointer<xmlError>) {
        let domain = error.pointee.domain
        if failureParser == nil,
            domain == Int32(XML_FROM_PARSER.rawValue) || domain == Int32(XML_FROM_NAMESPACE.rawValue)
        {
            failureParser = error.pointee.ctxt?.assumingMemoryBound(to: xmlParserCtxt.self)
        }
        guard failure == nil, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        // the cut's doing
        if let tag = tags.refusedTagAt, (Int(error.pointee.line), Int(error.pointee.int2)) >= tag { return }
        let isNamespaceError = domain == Int32(XML_FROM_NAMESPACE.rawValue)
        if isNamespaceError, let parser = error.pointee.ctxt?.assumingMemoryBound(to: xmlParserCtxt.self) {
            // libxml2 goes on after a namespace error and builds the nodes that follow, which could
            // then be told from those before only by their lines, not within one (a fuzz finding). It is
            // the first error, and nothing after it is read: stop building, as a fatal error does.
            parser.pointee.wellFormed = 0
            parser.pointee.disableSAX = 1
        }
        failureStoppedParsing =
            isNamespaceError || (domain == Int32(XML_FROM_PARSER.rawValue) && error.pointee.level == XML_ERR_FATAL)
        var message = error.pointee.message.map { String(cString: $0) } ?? "malformed XML"
        message = message.split(whereSeparator: \.isNewline).map { $0.trimmingXMLSpace() }.joined(separator: "; ")
        if let early = Self.earlyEnd(error) {
            if let open = tags.unterminated {
                failure = Self.endsInside(open)
                return
            }
            message = early
        }
        if error.pointee.domain == Int32(XML_FROM_I18N.rawValue) {
            // libxml2's encoder says "input conversion failed due to input error, bytes 0x…".
            message = "the text is not valid in the document's declared encoding (\(message))"
        }
        if origin != .start, Self.namesLine(error) {
            // "… Empty line 17 and …": a line of the piece, to be told as the file's.
            message = message.replacingFirst(
                " line \(error.pointee.int1)",
                with: " line \(origin.line(Int(error.pointee.int1)))"
            )
        }
        failure = .xml(message: message, line: Int(error.pointee.line), column: Int(error.pointee.int2))
    }

    /// Whether libxml2's message names the line of an element's start tag (and `int1` is that line).
    private static func namesLine(_ error: UnsafePointer<xmlError>) -> Bool {
        let code = error.pointee.code
        return error.pointee.domain == Int32(XML_FROM_PARSER.rawValue)
            && (code == Int32(XML_ERR_TAG_NAME_MISMATCH.rawValue) || code == Int32(XML_ERR_TAG_NOT_FINISHED.rawValue)
                || code == Int32(XML_ERR_GT_REQUIRED.rawValue))
    }

    /// libxml2's push parser says "Extra content at the end of the document" also when the document
    /// ends too early. Its state when it says so tells which: past the root (`EPILOG`) there really is
    /// extra content; before the root the document is empty; anywhere else it was cut short.
    private static func earlyEnd(_ error: UnsafePointer<xmlError>) -> String? {
        guard error.pointee.domain == Int32(XML_FROM_PARSER.rawValue),
            error.pointee.code == Int32(XML_ERR_DOCUMENT_END.rawValue),
            let context = error.pointee.ctxt?.assumingMemoryBound(to: xmlParserCtxt.self)
        else { return nil }
        switch context.pointee.instate {
        case XML_PARSER_EPILOG, XML_PARSER_EOF: return nil
        case XML_PARSER_START, XML_PARSER_MISC, XML_PARSER_PROLOG:
            return "the document is empty: it has no root element"
        default: return "the document ends before its root element is closed (truncated?)"
        }
    }

    /// Makes an error libxml2 met inside a CDATA section (or comment, or processing instruction) that
    /// never ends give way to the section's own error.
    ///
    /// libxml2 checks the characters of a CDATA section whose end has not arrived in blocks of 300
    /// bytes as they come, and a bad one at the start of a block halts the check until the end comes:
    /// an invalid character in a section that never ends was reported, or the section was, by how
    /// the input was cut (a fuzz finding, whole against pieces). So the input libxml2 did not read is
    /// screened on, to the section's end or the input's.
    private func preferUnterminatedSection() {
        guard case .xml(_, let line, let column)? = failure, let open = tags.openSkippedAt, (line, column) > open else {
            return
        }
        while tags.openSkippedAt != nil {
            if start == end {
                if atEnd { break }
                do { end = try input.read(into: buffer) } catch { return }  // the first failure stands
                start = 0
                if end == 0 { atEnd = true }
            }
            _ = tags.scan(UnsafeRawBufferPointer(rebasing: buffer[start..<end]))
            start = end
        }
        if atEnd, let section = tags.unterminated {
            failure = Self.endsInside(section)
        }
    }

    /// The failure of a document that ends inside a comment, CDATA section or processing instruction.
    private static func endsInside(_ section: (what: String, line: Int, column: Int)) -> Failure {
        .xml(
            message: "the document ends inside a \(section.what) that starts here",
            line: section.line,
            column: section.column
        )
    }

    /// The line of the recorded failure, when it has one (in the input's own lines).
    var failureLine: Int? {
        switch failure {
        case .doctype(let line, _)?: line
        case .xml(_, let line, _)? where line > 0: line
        default: nil
        }
    }

    /// The ``FormatError`` for the recorded failure, if any.
    func formatError() -> FormatError? {
        preferUnterminatedSection()
        return switch failure {
        case nil:
            tags.refusedTagAt.map { tag in
                FormatError(
                    source: input.name,
                    line: origin.line(tag.line),
                    column: origin.column(tag.column, onLine: tag.line),
                    reason:
                        "an element with more than \(XMLTagScreen.maximumAttributes) attributes (an Atom element has a few)"
                )
            }
        case .input(let error)?: FormatError(error)
        case .doctype(let line, let column)?:
            FormatError(
                source: input.name,
                line: origin.line(line),
                column: origin.column(column, onLine: line),
                reason: "DTDs are not allowed (a <!DOCTYPE> declaration); an Atom feed has none"
            )
        case .xml(let message, let line, let column)?:
            FormatError(
                source: input.name,
                line: line > 0 ? origin.line(line) : nil,
                column: line > 0 && column > 0 ? origin.column(column, onLine: line) : nil,
                reason: "malformed XML: " + message
            )
        }
    }

    /// The C read callback `xmlReaderForIO` calls, with this object as its context.
    static let readCallback: xmlInputReadCallback = { context, destination, count in
        guard let context, let destination, count > 0 else { return count == 0 ? 0 : -1 }
        return Unmanaged<AtomInputPump>.fromOpaque(context).takeUnretainedValue().read(
            into: destination,
            count: Int(count)
        )
    }

    /// The C error callback, with this object as its context.
    static let errorCallback: xmlStructuredErrorFunc = { context, error in
        guard let context, let error else { return }
        Unmanaged<AtomInputPump>.fromOpaque(context).takeUnretainedValue().record(error)
    }
}

extension String {
    /// With the first `target` replaced (none: unchanged).
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty, let at = utf8.indices.firstIndex(where: { utf8[$0...].starts(with: target.utf8) }) else {
            return self
        }
        return String(self[..<at]) + replacement + String(self[utf8.index(at, offsetBy: target.utf8.count)...])
    }
}

extension StringProtocol {
    /// Without leading and trailing XML white space (space, tab, CR, LF).
    func trimmingXMLSpace() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        let tail = Substring(self).drop(while: isSpace)
        return tail[..<(tail.lastIndex { !isSpace($0) }.map { tail.index(after: $0) } ?? tail.startIndex)]
    }
}
