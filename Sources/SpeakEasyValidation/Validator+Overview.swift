import SpeakEasyModel

extension Validator {
    /// The picture of the data read so far (see ``ReportOverview``), from the event records and the
    /// speaker index: one walk over the records, nothing read again.
    ///
    /// Call after ``finishReferences()``; a run cut short by `--max-errors` gives the picture of what
    /// it read.
    package func overview(inputs: [ReportOverview.Input] = []) -> ReportOverview {
        var overview = ReportOverview()
        overview.inputs = inputs
        var byMonth: [Int: Int] = [:]  // year * 12 + month - 1 → events
        var perSpeaker = [Int](repeating: 0, count: speakerKeys.strings.count)
        var seededMarks = 0
        events.forEach { record in
            if record.hasSpeaker, speakers[record.speaker] != nil {
                perSpeaker[Int(record.speaker)] += 1
            } else {
                overview.eventsWithoutSpeaker += 1
            }
            guard record.hasDate else {
                overview.dates.undated += 1
                return
            }
            overview.dates.dated += 1
            let fraction = record.ticks % EdmDateTime.ticksPerSecond
            if fraction == 0 {
                overview.dates.wholeSecond += 1
            } else if fraction % 10 == 0 {
                overview.dates.trimmedWithFraction += 1
            } else {
                overview.dates.sevenDigits += 1
            }
            // seed writes every date one tick past a multiple of its resolution (a second at least).
            if fraction == 1 { seededMarks += 1 }
            let days = record.ticks / EdmDateTime.ticksPerDay
            let date = EdmDateTime(uncheckedTicks: record.ticks).components
            byMonth[date.year * 12 + date.month - 1, default: 0] += 1
            overview.hours[date.hour] += 1
            overview.weekdays[Int(days % 7)] += 1  // 0001-01-01, day 0, was a Monday
        }
        overview.dates.unzoned = unzonedDates
        // Every one: the hours and weekdays are shown as the generator's, which they are only when
        // no date came from elsewhere.
        overview.looksSeeded = overview.dates.dated > 0 && seededMarks == overview.dates.dated
        overview.months = byMonth.keys.sorted().map {
            ReportOverview.Month(year: $0 / 12, month: $0 % 12 + 1, events: byMonth[$0]!)
        }

        var busy: [ReportOverview.Speaker] = []
        var idle: [ReportOverview.Speaker] = []
        for number in speakers.order {
            guard let entry = speakers[number] else { continue }
            let count = perSpeaker[Int(number)]
            overview.speakerCount += 1
            let speaker = ReportOverview.Speaker(
                rowKey: entry.rowKey,
                name: entry.name,
                events: count,
                imageUrl: entry.imageUrl
            )
            if count == 0 {
                overview.speakersWithoutEventsCount += 1
                if idle.count < ReportOverview.speakerLimit { idle.append(speaker) }
            } else {
                busy.append(speaker)
            }
        }
        // The busiest first, then in the order they were read.
        let ranked = busy.indices.sorted { (busy[$0].events, $1) > (busy[$1].events, $0) }
        overview.speakers = ranked.prefix(ReportOverview.speakerLimit).map { busy[$0] }
        overview.speakersWithoutEvents = idle
        return overview
    }
}
