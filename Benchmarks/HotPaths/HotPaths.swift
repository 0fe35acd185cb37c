import Benchmark

// The hot paths' allocation counts, with thresholds that CI checks (CONTRIBUTING.md, "Benchmarks").
// Timings here move ±20% from run to run; counts of mallocs do not, so a rise of a few percent over the
// committed threshold (Benchmarks/Thresholds) is a regression, whatever else the machine is doing.
// Each benchmark is one iteration over its whole batch (10,000 entities, or one page of a query), so
// the thresholds read as "mallocs per 10,000 entities". Names have no spaces: the benchmark package
// writes a threshold's file with `_` for a space, and looks for it with the space.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.mallocCountTotal],
        warmupIterations: 1,
        maxDuration: .seconds(20),
        maxIterations: 5,
        thresholds: Tolerance.relative
    )
    formatBenchmarks()
    copyBenchmarks()
    seedingBenchmarks()
    serveBenchmarks()
}

/// How far a count may rise over its threshold before the check fails.
enum Tolerance {
    /// 3%: a count of thousands moves by less than that from run to run (the serve page's by about 2%).
    static var relative: [BenchmarkMetric: BenchmarkThresholds] { [.mallocCountTotal: .init(relative: [.p90: 3.0])] }
    /// 10 mallocs, for a count near zero (the writers that allocate nothing an entity): 3% of nothing is
    /// nothing, and the benchmark package does not check a percentage against a threshold of 0.
    static var nearZero: [BenchmarkMetric: BenchmarkThresholds] { [.mallocCountTotal: .init(absolute: [.p90: 10])] }
}
