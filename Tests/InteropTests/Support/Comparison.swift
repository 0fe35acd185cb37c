import Foundation
import SpeakEasyData
import Testing

/// How an SDK's view of an entity is compared with ours, value by value and type by type.
///
/// The checks use our model only on our side: the SDK's lexical forms are read with the standard
/// library and Foundation (`Int64(_:)`, `Double(_:)`, `Data(base64Encoded:)`), not with our parsers,
/// so a bug shared by our writer and our reader cannot hide. DateTimes are the exception: their
/// 7th digit lives only in text, so the SDK's string is parsed with ``EdmDateTime`` and, in addition,
/// the instant the SDK's Python datetime holds (`micros`) is checked against our ticks.
struct Comparison {
    enum DateTimes {
        /// The dump's DateTime text is the exact value (the SDK kept the service string, or a writer
        /// declared it): it must parse to our instant, tick for tick.
        case exact
        /// Only the SDK's Python datetime is known (azure-storage 0.20.3 parses with dateutil): our value
        /// truncated to microseconds must be its instant.
        case microseconds
    }

    var dateTimes: DateTimes = .exact
    /// azure-storage 0.20.3 reads Edm.Int32 and Edm.Int64 alike into Python ints, so it can only tell
    /// them apart by range: an Int64 that fits 32 bits comes back as an Int32 (documented limit).
    var intTypeByRange = false
    /// Compare `odata.etag` / `m:etag`. (At nometadata there is none; azure-data-tables makes one up.)
    var etags = true

    /// Every difference between our entity and the SDK's, as readable sentences; empty when identical.
    func differences(ours: Entity, theirs: DumpEntity) -> [String] {
        var found: [String] = []
        let who = "entity (\(ours.partitionKey.debugDescription), \(ours.rowKey.debugDescription))"
        if ours.partitionKey != theirs.partitionKey {
            found.append(
                "\(who): PartitionKey: ours \(ours.partitionKey.debugDescription), SDK \(theirs.partitionKey.debugDescription)"
            )
        }
        if ours.rowKey != theirs.rowKey {
            found.append("\(who): RowKey: ours \(ours.rowKey.debugDescription), SDK \(theirs.rowKey.debugDescription)")
        }
        switch (ours.timestamp, theirs.timestamp) {
        case (nil, nil): break
        case (let ours?, let theirs?):
            if let problem = dateTime(ours, text: theirs.value, micros: theirs.micros, seconds: false) {
                found.append("\(who): Timestamp: \(problem)")
            }
        default:
            found.append(
                "\(who): Timestamp: ours \(ours.timestamp?.description ?? "absent"), SDK \(theirs.timestamp?.value ?? "absent")"
            )
        }
        if etags, ours.etag != theirs.etag {
            found.append(
                "\(who): etag: ours \(ours.etag?.debugDescription ?? "absent"), SDK \(theirs.etag?.debugDescription ?? "absent")"
            )
        }
        let ourNames = ours.properties.map(\.name)
        let theirNames = theirs.properties.map(\.name)
        if ourNames != theirNames {
            found.append("\(who): properties differ: ours \(ourNames), SDK \(theirNames)")
        }
        for property in theirs.properties {
            guard let value = ours[property.name] else { continue }
            if let problem = difference(ours: value, theirs: property) {
                found.append("\(who).\(property.name): \(problem)")
            }
        }
        return found
    }

    func difference(ours: EdmValue, theirs: DumpEntity.Value) -> String? {
        var expectedType = ours.type
        if intTypeByRange, case .int64(let value) = ours, Int32(exactly: value) != nil { expectedType = .int32 }
        let shown =
            theirs.value.count > 200
            ? "\(theirs.value.prefix(80).debugDescription)… (\(theirs.value.count) characters)"
            : theirs.value.debugDescription
        let ourShown =
            ours.description.count > 200
            ? "\(ours.description.prefix(80).debugDescription)… (\(ours.description.count) characters)"
            : ours.description.debugDescription
        guard theirs.type == expectedType.rawValue else {
            return "type: ours \(ours.type.rawValue) \(ourShown), SDK \(theirs.type) \(shown)"
        }
        let same: Bool
        switch ours {
        case .string(let text): same = text == theirs.value
        case .int32(let value): same = Int64(theirs.value) == Int64(value)
        case .int64(let value): same = Int64(theirs.value) == value
        case .double(let value):
            let their: Double? =
                switch theirs.value {
                case "NaN": .nan
                case "Infinity": .infinity
                case "-Infinity": -.infinity
                default: Double(theirs.value)
                }
            same = their.map { value.isNaN ? $0.isNaN : $0.bitPattern == value.bitPattern } ?? false
        case .boolean(let value): same = theirs.value == (value ? "true" : "false")
        case .guid(let value): same = theirs.value == value.description  // both lower-case 8-4-4-4-12
        case .binary(let bytes): same = Data(base64Encoded: theirs.value).map { Array($0) == bytes } ?? false
        case .dateTime(let value):
            if let problem = dateTime(
                value,
                text: theirs.value,
                micros: theirs.micros,
                seconds: theirs.compare == "seconds"
            ) {
                return problem
            }
            same = true
        }
        return same ? nil : "value: ours \(ours.type.rawValue) \(ourShown), SDK \(theirs.type) \(shown)"
    }

    private func dateTime(_ ours: EdmDateTime, text: String, micros: Int64?, seconds: Bool) -> String? {
        let oursMicros = ours.ticks / 10
        if dateTimes == .exact {
            guard let parsed = try? EdmDateTime(parsing: text) else {
                return "the SDK's \(text.debugDescription) is not an Edm.DateTime we read"
            }
            guard parsed == ours else { return "ours \(ours), SDK \(text)" }
        }
        guard let micros else {
            return dateTimes == .microseconds ? "the SDK gave no datetime for \(text.debugDescription)" : nil
        }
        if seconds {
            guard oursMicros / 1_000_000 == micros / 1_000_000 else {
                return "ours \(ours), SDK \(text) (\(micros) µs since 0001-01-01), compared to the second"
            }
        } else {
            guard oursMicros == micros else {
                return "ours \(ours) (\(oursMicros) µs since 0001-01-01), SDK \(text) (\(micros) µs)"
            }
        }
        return nil
    }

    /// Records every difference between the lists as a test issue; also their lengths must match.
    func expectSame(
        ours: [Entity],
        theirs: [DumpEntity],
        _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            ours.count == theirs.count,
            "\(what): we have \(ours.count) entities, the SDK \(theirs.count)",
            sourceLocation: sourceLocation
        )
        for (our, their) in zip(ours, theirs) {
            for problem in differences(ours: our, theirs: their) {
                Issue.record("\(what): \(problem)", sourceLocation: sourceLocation)
            }
        }
    }
}
