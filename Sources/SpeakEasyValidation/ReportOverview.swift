/// What the data looks like, beside what is wrong with it: the picture the HTML report draws
/// (events per month, how the app reads the dates, events per speaker, the inputs and the time).
///
/// Made once at the end of a run from the records the one pass keeps anyway (``Validator``'s
/// event and speaker indexes), so asking for it reads nothing twice and checks nothing more. Every
/// list in it is bounded: months by the calendar, speakers by ``speakerLimit``, so the overview of
/// 1,000,000 events is a few kilobytes.
package struct ReportOverview: Sendable {
    /// One input: a file with its size, or the account's table with its entities per partition.
    package struct Input: Sendable, Equatable {
        package var name: String
        /// The file's size in bytes; nil for a store.
        package var bytes: Int64?
        /// How many entities were read from it, when known (per partition for a store).
        package var entities: Int?

        package init(name: String, bytes: Int64? = nil, entities: Int? = nil) {
            self.name = name
            self.bytes = bytes
            self.entities = entities
        }
    }

    /// How many events fell in one calendar month (UTC).
    package struct Month: Sendable, Equatable {
        package var year: Int
        package var month: Int
        package var events: Int
    }

    /// How the events' dates reach the app, as Azure serves them (trailing fractional zeros trimmed).
    package struct Dates: Sendable, Equatable {
        /// Events with an Edm.DateTime EventDate.
        package var dated = 0
        /// Events without one (absent, or another type): the app shows no date.
        package var undated = 0
        /// Dated events written without the `Z`, which Azure does not read as UTC.
        package var unzoned = 0
        /// Dated events whose served form keeps all seven fractional digits.
        package var sevenDigits = 0
        /// Dated events Azure serves trimmed but with a fraction left: the app still reads them.
        package var trimmedWithFraction = 0
        /// Dated events on a whole second: served as `…:00Z`, which the app's pattern refuses.
        package var wholeSecond = 0

        /// The events whose date the app reads as Azure serves it.
        package var readByApp: Int { max(dated - wholeSecond - unzoned, 0) }
    }

    /// One speaker and how many events name them by SpeakerKey.
    package struct Speaker: Sendable, Equatable {
        package var rowKey: String
        package var name: String?
        package var events: Int
        /// The speaker's ImageUrl, as written.
        package var imageUrl: String?
    }

    /// An image small enough to show inline, with the type its bytes say it is.
    package struct Thumbnail: Sendable, Equatable {
        package var mediaType: String
        package var data: [UInt8]
    }

    /// At most this many speakers are listed (the busiest first), and this many without events.
    package static let speakerLimit = 200

    package var inputs: [Input] = []
    /// How long the checks took, from the first read to the last finding.
    package var elapsed: Duration = .zero
    /// Months that have events, in order.
    package var months: [Month] = []
    /// Events per hour of the day (UTC), 0 to 23.
    package var hours = [Int](repeating: 0, count: 24)
    /// Events per day of the week (UTC), Monday first.
    package var weekdays = [Int](repeating: 0, count: 7)
    package var dates = Dates()
    /// Whether every dated event carries seed's mark, one tick past its slot: then the hours and
    /// weekdays are the generator's, and worth a look.
    package var looksSeeded = false
    /// The busiest speakers, most events first, at most ``speakerLimit``.
    package var speakers: [Speaker] = []
    /// How many speakers there are in all.
    package var speakerCount = 0
    /// Speakers no event names, at most ``speakerLimit``.
    package var speakersWithoutEvents: [Speaker] = []
    /// How many speakers no event names, in all.
    package var speakersWithoutEventsCount = 0
    /// Events with no SpeakerKey, or one that names no speaker.
    package var eventsWithoutSpeaker = 0
    /// Photos to show, by speaker RowKey (only a store has them).
    package var thumbnails: [String: Thumbnail] = [:]
    /// Why some listed speakers show no photo although they have one (too many, too large).
    package var thumbnailNote: String?

    package init() {}

    /// How many events there are, dated or not.
    package var events: Int { dates.dated + dates.undated }
}
