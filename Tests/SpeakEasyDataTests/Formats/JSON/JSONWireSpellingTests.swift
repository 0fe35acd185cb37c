import SpeakEasyData
import Testing

/// The one-pass copy of a stored object (``JSONWireSpelling/appendWriterSpelled(_:annotated:to:)``)
/// writes exactly what the scanner's path writes, and is taken for every object the writer makes
/// without a Double in exponent form; objects of any other spelling are left to the scanner's path.
@Suite("JSON wire spelling")
struct JSONWireSpellingTests {
    /// Both paths' bytes for one object, nil for a path that declined (one pass) or failed (scanner).
    static func spelled(_ object: [UInt8], annotated: Bool) -> (onePass: String?, scanned: String?) {
        object.withUnsafeBytes { raw in
            var onePass: [UInt8] = [1, 2]
            let taken = JSONWireSpelling.appendWriterSpelled(raw, annotated: annotated, to: &onePass)
            #expect(taken || onePass == [1, 2], "a declined copy leaves nothing behind")
            var spelling = JSONWireSpelling()
            var scanned: [UInt8] = [1, 2]
            let scannedOK = (try? spelling.appendScanned(raw, annotated: annotated, to: &scanned)) != nil
            return (
                taken ? String(decoding: onePass.dropFirst(2), as: UTF8.self) : nil,
                scannedOK ? String(decoding: scanned.dropFirst(2), as: UTF8.self) : nil
            )
        }
    }

    static let texts = [
        "", "plain", "quote \" back \\ slash", "line\nbreak\r\ttab", "\u{0}\u{1}\u{8}\u{C}\u{1F}\u{7F}", "é😀",
        "\u{2028}", "Edm.DateTime", "2026-03-01T18:30:00.0000000Z", "null", "{\"a\":1}",
    ]

    static func randomValue(_ random: inout StatefulRandom) -> EdmValue {
        let unit = Bool.random(using: &random) ? EdmDateTime.ticksPerSecond : 1
        return switch Int.random(in: 0..<9, using: &random) {
        case 0: .int32(Int32.random(in: .min ... .max, using: &random))
        case 1: .int64(Int64.random(in: .min ... .max, using: &random))
        case 2: .double([0, -0.0, 4.5, 10, -123.25, 1e15, .nan, .infinity][Int.random(in: 0..<8, using: &random)])
        case 3: .boolean(Bool.random(using: &random))
        case 4:
            // Whole seconds half the time: the dates whose zeros the wire trims.
            .dateTime(EdmDateTime(ticks: Int64.random(in: 0...EdmDateTime.max.ticks, using: &random) / unit * unit)!)
        case 5: .guid(EdmGuid("c9da6455-213d-42c9-9a79-3e9149a57833")!)
        case 6: .binary([0, 1, 0x68, 0x69])
        default: .string(texts.randomElement(using: &random)!)
        }
    }

    @Test("objects the writer makes are copied in one pass, to the scanner's bytes", arguments: [true, false])
    func writerObjects(annotated: Bool) throws {
        var random = StatefulRandom()
        var taken = 0
        for round in 0..<2000 {
            let count = Int.random(in: 0..<8, using: &random)
            let properties = (0..<count).map { index in
                Property(
                    round.isMultiple(of: 7) ? Self.texts[index % Self.texts.count] + "\(index)" : "P\(index)",
                    Self.randomValue(&random)
                )
            }
            var object: [UInt8] = []
            JSONEntityWriter.appendPropertiesObject(properties, to: &object)
            let (onePass, scanned) = Self.spelled(object, annotated: annotated)
            #expect(scanned != nil)
            if let onePass {
                taken += 1
                #expect(onePass == scanned, "\(String(decoding: object, as: UTF8.self))")
            } else {
                // Only a name the writer escapes, or a Double's exponent, leaves the one pass.
                let text = String(decoding: object, as: UTF8.self)
                #expect(text.contains("\\") || text.contains("e+") || text.contains("e-"), "\(text)")
            }
        }
        #expect(taken > 1000)
    }

    @Test("every date an annotation names is trimmed, and nothing else is", arguments: [true, false])
    func dates(annotated: Bool) {
        let object = Array(
            (#"{"When@odata.type":"Edm.DateTime","When":"2026-03-01T18:30:00.0000000Z","#
                + #""Text":"2026-03-01T18:30:00.0000000Z","Type":"Edm.DateTime","Other":"2026-03-01T18:30:00.1000000Z","#
                + #""Late@odata.type":"Edm.DateTime","Late":"not a date","N":-0.5,"B":true,"Z":null,"E":"\u001f\\\""}"#)
                .utf8
        )
        let (onePass, scanned) = Self.spelled(object, annotated: annotated)
        #expect(onePass != nil)
        #expect(onePass == scanned)
        #expect(onePass?.contains(#""When":"2026-03-01T18:30:00Z""#) == true)
        #expect(onePass?.contains(#""Text":"2026-03-01T18:30:00.0000000Z""#) == true)
        #expect(onePass?.contains(#""Other":"2026-03-01T18:30:00.1000000Z""#) == true)
        #expect(onePass?.contains(#""Z""#) == false)
        // An annotation of an annotation names no property's date.
        let nested = Array(
            #"{"A@odata.type@odata.type":"Edm.DateTime","A@odata.type":"2026-03-01T18:30:00.0000000Z","A":"x"}"#.utf8
        )
        let spelled = Self.spelled(nested, annotated: annotated)
        #expect(spelled.onePass == spelled.scanned)
    }

    @Test("objects of other spellings are left to the scanner's path")
    func otherSpellings() {
        for object in [
            #"{ "A":"x"}"#, #"{"A" :"x"}"#, #"{"A":"x" }"#, #"{"A":"x"} "#, #"{"A":"x",}"#, #"{"A\u0041":"x"}"#,
            #"{"A":"\/"}"#, #"{"A":"\b"}"#, #"{"A":"\u00e9"}"#, #"{"A":"\u000a"}"#, #"{"A":"\u001F"}"#,
            #"{"A":1e5}"#, #"{"A":1E+5}"#, #"{"A":01}"#, #"{"A":1.}"#, #"{"A":-}"#, #"{"A":tru}"#, #"{"A":nul}"#,
            #"{"A@odata.type":"Edm.DateTime","B":"2026-03-01T18:30:00.0000000Z"}"#,
            #"{"A":"2026-03-01T18:30:00.0000000Z","A@odata.type":"Edm.DateTime"}"#,
            #"{"A@odata.type":"Edm.DateTime"}"#, #"{"A@odata.type":1,"A":1}"#, #"{"A@odata.type":null}"#,
            #"{"A":"x""#, #"{"A":"x"}}"#, #"{"A":{"B":1}}"#, "{\"A\":\"\u{1}\"}",
            "[]", "{", "",
        ] {
            let (onePass, _) = Self.spelled(Array(object.utf8), annotated: true)
            #expect(onePass == nil, "\(object)")
        }
        #expect(Self.spelled(Array("{}".utf8), annotated: true).onePass == "")
        // A string with an escape is decoded by the scanner, which refuses invalid UTF-8 in it (found
        // by Fuzz/run json); without an escape, both copy it as it is.
        for (text, taken) in [(#""\" \#u{FF}""#, false), (#"" \#u{FF}""#, true)] {
            let object = Array(#"{"A":"#.utf8) + text.utf8.map { $0 == 0xC3 ? 0xFF : $0 }.filter { $0 != 0xBF } + [0x7D]
            let (onePass, scanned) = Self.spelled(object, annotated: true)
            #expect((onePass != nil) == taken, "\(object)")
            #expect(taken ? onePass == scanned : scanned == nil)
        }
    }
}
