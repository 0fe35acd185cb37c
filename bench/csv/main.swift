// CSV reader and formatter throughput, without the `export` executable around them: formats ~200 MB
// of events-like entities (1.1–1.3 KB a row) to CSV, writes them to a file, then scans it (records
// and fields only) and reads it back to entities. Built by bench/csv/run as a throwaway package over
// the library's own sources. Times are CPU seconds of this process (the machine is shared), and wall
// seconds beside them.
#if canImport(Glibc)
    import Glibc
#endif

func seconds(_ clock: clockid_t) -> Double {
    var time = timespec()
    clock_gettime(clock, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Runs `body` and prints its throughput over `bytes`.
func measure(_ label: String, bytes: Int, _ body: () throws -> Void) rethrows {
    let cpu = seconds(CLOCK_PROCESS_CPUTIME_ID), wall = seconds(CLOCK_MONOTONIC)
    try body()
    let cpuTaken = seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu, wallTaken = seconds(CLOCK_MONOTONIC) - wall
    let megabytes = Double(bytes) / 1e6
    print("\(label): \(Int(megabytes)) MB, \(Int(megabytes / cpuTaken)) MB/s (CPU \(Int(cpuTaken * 1000)) ms), \(Int(megabytes / wallTaken)) MB/s wall")
}

let arguments = CommandLine.arguments.dropFirst()
let path = arguments.first { !$0.hasPrefix("--") } ?? "/tmp/speakeasy-csv-bench.csv"
let typed = arguments.contains("--typed")
let count = 180_000

let lorem = """
    Lorem ipsum dolor sit amet, consectetur adipiscing elit. Integer nec odio. Praesent libero. Sed cursus ante dapibus diam. \
    Sed nisi. Nulla quis sem at nibh elementum imperdiet. Duis sagittis ipsum. Praesent mauris. Fusce nec tellus sed augue semper \
    porta. Mauris massa. Vestibulum lacinia arcu eget nulla. Class aptent taciti sociosqu ad litora torquent per conubia nostra, \
    per inceptos himenaeos. Curabitur sodales ligula in libero. Sed dignissim lacinia nunc. Curabitur tortor. Pellentesque nibh. \
    Aenean quam. In scelerisque sem at dolor. Maecenas mattis. Sed convallis tristique sem. Proin ut ligula vel nunc egestas \
    porttitor. Morbi lectus risus, iaculis vel, suscipit quis, luctus non, massa. Fusce ac turpis quis ligula lacinia aliquet. \
    Mauris ipsum. Nulla metus metus, ullamcorper vel, tincidunt sed, euismod in, nibh. Quisque volutpat condimentum velit. Class \
    aptent taciti sociosqu ad litora torquent per conubia nostra, per inceptos himenaeos. Nam nec ante. Sed lacinia, urna non \
    tincidunt mattis, tortor neque adipiscing diam, a cursus ipsum ante quis turpis.
    """
let names = ["Mobile Mondays", "iOS Meetup", "Windows Phone Meetup", "Android Meetup", "HTML5 Meetup", "SharePoint Saturdays"]
let places = ["Chicago, IL", "Milwaukee, WI", "Madison, WI", "Boston, MA", "Washington, DC", "Los Angeles, CA", "New York City, NY"]
var random = SplitMix64(seed: 42)
func guid(_ random: inout SplitMix64) -> String { EdmGuid(high: random.next(), low: random.next()).description }

let start = try EdmDateTime(parsing: "2026-01-01T00:00:00Z")
var entities: [Entity] = []
entities.reserveCapacity(count)
for index in 0..<count {
    entities.append(
        Entity(
            partitionKey: "Events", rowKey: guid(&random),
            properties: [
                Property("EventDate", .dateTime(start.adding(ticks: Int64(index) * 600_000_000)!)),
                Property("EventName", .string(names[index % names.count])),
                Property("EventLocation", .string(places[index % places.count])),
                Property("EventDescription", .string(lorem)),
                Property("SpeakerKey", .string(guid(&random))),
                Property("SpeakerName", .string("Ada Brennan")),
            ]))
}

// Formatting, into a buffer emptied every MiB as a writer would (no I/O).
var formatted = 0
var formatter = try CSVFormatter(.init(typed: typed))
var out: [UInt8] = []
out.reserveCapacity(2 << 20)
formatter.begin(into: &out)
for entity in entities {
    try formatter.append(entity, into: &out)
    if out.count >= 1 << 20 { formatted += out.count; out.removeAll(keepingCapacity: true) }
}
formatter.end(into: &out)
formatted += out.count
out.removeAll(keepingCapacity: true)
try measure("format entities → CSV (\(typed ? "typed" : "plain"))", bytes: formatted) {
    var formatter = try CSVFormatter(.init(typed: typed))
    formatter.begin(into: &out)
    for entity in entities {
        try formatter.append(entity, into: &out)
        if out.count >= 1 << 20 { out.removeAll(keepingCapacity: true) }
    }
    formatter.end(into: &out)
}

let output = try OutputFile(path: path)
out.removeAll(keepingCapacity: true)
formatter = try CSVFormatter(.init(typed: typed))
for entity in entities {
    try formatter.append(entity, into: &out)
    if out.count >= 1 << 20 { try output.drain(&out) }
}
formatter.end(into: &out)
try output.drain(&out)
try output.commit()
entities = []

for _ in 0..<3 {
    try measure("scan CSV records", bytes: formatted) {
        let scanner = CSVRecordScanner(try ByteInput(path: path))
        var fields = 0
        while try scanner.nextRecord() { fields += scanner.fields.count }
        precondition(fields == (count + 1) * (typed ? 15 : 8))
    }
    try measure("read CSV → entities", bytes: formatted) {
        var reader = try CSVEntityReader(try ByteInput(path: path))
        var read = 0
        while try reader.next() != nil { read += 1 }
        precondition(read == count)
    }
}
