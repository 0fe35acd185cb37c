/// Speaker references: resolved at once when the speaker is known, else at the end of the input.
extension Validator {
    /// A speaker that `table` holds already and that stays there, as a merge keeps it: the events
    /// checked may name it. References see it; no rule looks at it, and a speaker of the input with
    /// the same key stands for it. Call after the input, before ``finishReferences()``.
    package mutating func knowStoredSpeaker(rowKey: String, name: String?, table: String) {
        let current = sourceNumber
        begin(.table(table))
        let entry = SpeakerIndex.Entry(rowKey: rowKey, name: name, imageUrl: nil, source: sourceNumber, line: 0)
        _ = speakers.add(entry, key: speakerKeys.number(rowKey))
        restoreSource(current)
    }

    /// Compares an event's SpeakerName with the Name of the speaker its SpeakerKey names.
    ///
    /// The nearest speaker name, a hint, is told only once every speaker is known (at the end): told
    /// at once, it was the nearest of the speakers read so far, so the same file gave other hints
    /// with its speakers before or after its events (a fuzz finding).
    mutating func compareName(
        _ speakerName: String,
        of event: FindingLocation,
        with speaker: SpeakerIndex.Entry,
        atEnd: Bool
    ) {
        guard log.isOn(.referencesNameMismatch), let name = speaker.name, name != speakerName else { return }
        let added = log.findings.count
        log.add(
            .referencesNameMismatch,
            "SpeakerName '\(Self.excerpt(speakerName))' is not the Name of speaker \(speaker.rowKey), '\(Self.excerpt(name))'",
            at: event,
            related: [location(of: speaker)]
        )
        guard log.findings.count > added else { return }
        if atEnd {
            hintNearestName(toFindingAt: added, speakerName: speakerName, notName: name)
        } else {
            unhinted.append((added, speakerNames.number(speakerName), name))
        }
    }

    /// Adds the nearest speaker name to a name mismatch's message, unless it is the speaker's own.
    private mutating func hintNearestName(toFindingAt index: Int, speakerName: String, notName name: String) {
        if let nearest = nearestSpeakerName(to: speakerName), nearest != name {
            log.append("; the nearest speaker name is '\(Self.excerpt(nearest))'", toFindingAt: index)
        }
    }

    /// The speaker Name nearest to `name` by edit distance (cached: the same wrong name tends to
    /// repeat over many events).
    mutating func nearestSpeakerName(to name: String) -> String? {
        if let cached = nearestNames[name] { return cached }
        let candidates = speakers.order.compactMap { speakers[$0]?.name }
        let nearest = NameDistance.nearest(to: name, among: candidates)
        if nearestNames.count < 10_000 { nearestNames[name] = nearest }
        return nearest
    }

    /// Judges the events whose speaker was not known when they were read: an orphan if the speaker
    /// never came, else the name comparison. Call once, after the last entity; not after a run
    /// `--max-errors` stopped (a speaker might have come later).
    package mutating func finishReferences() {
        for (finding, speakerName, name) in unhinted {
            hintNearestName(toFindingAt: finding, speakerName: speakerNames[speakerName], notName: name)
        }
        unhinted = []
        var byName: [String: UInt32]?
        for (eventNumber, nameNumber) in pending {
            if log.isFull { return }
            let record = events[eventNumber]
            let speakerName = nameNumber == Self.noName ? nil : speakerNames[nameNumber]
            // The location is made only for a finding: a GUID RowKey's text costs an allocation.
            if let speaker = speakers[record.speaker] {
                if let speakerName, let name = speaker.name, name != speakerName {
                    compareName(speakerName, of: location(of: record), with: speaker, atEnd: true)
                }
                continue
            }
            guard log.isOn(.referencesOrphan) else { continue }
            var message = "SpeakerKey '\(Self.excerpt(speakerKeys[record.speaker]))' names no speaker"
            // Events checked alone: every one is an orphan, and the cause is the missing speakers.
            if speakers.order.isEmpty {
                message += "; no speakers were read at all (their file was not given with the events)"
            }
            var related: [FindingLocation] = []
            if let speakerName {
                if byName == nil {
                    byName = [:]
                    for number in speakers.order.reversed() {
                        if let name = speakers[number]?.name { byName![name] = number }
                    }
                }
                if let number = byName![speakerName], let speaker = speakers[number] {
                    message += "; speaker '\(Self.excerpt(speakerName))' has RowKey \(speaker.rowKey)"
                    related.append(location(of: speaker))
                } else if let nearest = nearestSpeakerName(to: speakerName) {
                    message +=
                        " (SpeakerName '\(Self.excerpt(speakerName))'; the nearest speaker name is '\(Self.excerpt(nearest))')"
                }
            }
            log.add(.referencesOrphan, message, at: location(of: record), related: related)
        }
        pending = []
    }
}
