import Benchmark
import SpeakEasyData
import SpeakEasyProtocol

/// A query reply of 10,000 seeded events, as Azure (and `serve`) sends it, copied for the JSON output
/// without decoding (``JSONPageCopier``): what `export --store … --to x.json` does with each page of a
/// remote account. An entity costs no malloc: its keys stay where they were written until a scan
/// asks for them. What is left is the page's own arrays growing, a few dozen.
func copyBenchmarks() {
    let reply = TableJSONWriter(
        endpoint: TableEndpoint(url: "http://127.0.0.1:10002/devstoreaccount1", account: "devstoreaccount1"),
        metadata: .minimal
    ).queryResponse(SampleEvents.entities, table: DataContract.table)
    Benchmark("copy-json-page") { benchmark in
        var copier = JSONPageCopier(formatter: JSONFormatter())
        benchmark.startMeasurement()
        let page = try copier.copy(page: reply, decode: TableJSONReader.entities)
        benchmark.stopMeasurement()
        precondition(
            page.count == SampleEvents.count && page.decoded == 0,
            "copied \(page.count), decoded \(page.decoded)"
        )
        blackHole(page)
    }
}
