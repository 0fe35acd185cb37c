/// The geometry of a bar chart the HTML report draws as inline SVG: our own arithmetic, no script
/// and no library, so the chart renders wherever the file is opened.
///
/// The numbers are whole SVG user units in a fixed view box that the browser scales to the page's
/// width; every bar keeps at least 1 unit of height when its value is not 0, so a small month beside
/// a large one still shows. Labels are thinned to every n-th bar when there are many bars, and the
/// table beside the chart holds every value.
struct BarChart {
    struct Bar {
        var label: String
        var value: Int
        var x: Int
        var y: Int
        var width: Int
        var height: Int
        /// Where the label is drawn (centre of the bar), and whether it is drawn at all.
        var labelX: Int
        var showsLabel: Bool
    }

    static let width = 720
    static let plotHeight = 160
    /// Room under the plot for the labels.
    static let height = plotHeight + 24

    var bars: [Bar]
    var maximum: Int

    /// Bars for `values`, labelled `labels`, in that order.
    init(labels: [String], values: [Int]) {
        let count = max(values.count, 1)
        let maximum = values.max() ?? 0
        self.maximum = maximum
        let slot = Self.width / count
        let gap = slot >= 8 ? max(slot / 6, 1) : 0
        // Labels about 40 units apart at most, so they do not overlap.
        let every = max(1, (40 + slot - 1) / max(slot, 1))
        bars = zip(labels, values).enumerated().map { index, pair in
            let (label, value) = pair
            var height = maximum == 0 ? 0 : Int((Double(value) / Double(maximum) * Double(Self.plotHeight)).rounded())
            if value > 0 { height = max(height, 1) }
            let x = index * slot + gap / 2
            return Bar(
                label: label,
                value: value,
                x: x,
                y: Self.plotHeight - height,
                width: max(slot - gap, 1),
                height: height,
                labelX: index * slot + slot / 2,
                showsLabel: index % every == 0
            )
        }
    }
}
