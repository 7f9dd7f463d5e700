import Coffer
import Foundation

/// Reports as SVG charts, 800×500, written by hand: SVG is text, and a chart of bars or one line needs no library.
/// Bars for groups (one panel per currency, each with its own axis: currencies are never put on one scale), paired
/// in/out bars for cash flow, a line for a balance over time with its statement balances marked. Geometry is in
/// `Double` (pixels); every figure printed on the chart is the report's exact decimal.
enum ReportChart {
    static let width = 800.0
    static let height = 500.0

    static func svg(_ report: MoneyReport, from: String?, to: String?) -> String {
        var svg = SVG()
        let what: String
        switch report.kind {
        case .spending: what = "Spending"
        case .income: what = "Income"
        case .cashflow: what = "Cash flow (in, out)"
        }
        let period = [from.map { "from \($0)" }, to.map { "to \($0)" }].compactMap { $0 }.joined(separator: " ")
        svg.title("\(what) by \(report.grouping.rawValue)" + (period.isEmpty ? "" : ", " + period))
        guard !report.currencies.isEmpty, !report.groups.isEmpty else {
            svg.text("Nothing to show: no transactions in what was asked.", x: width / 2, y: height / 2, size: 16, anchor: "middle")
            return svg.document()
        }
        // One panel per currency, stacked; at most four (the rest are left to the table).
        let currencies = Array(report.currencies.prefix(4))
        let top = 44.0, bottom = height - 8
        let panelHeight = (bottom - top) / Double(currencies.count)
        for (index, currency) in currencies.enumerated() {
            let y0 = top + Double(index) * panelHeight
            let showLabels = true
            let series: [[Decimal]]
            let colours: [String]
            switch report.kind {
            case .spending:
                series = [report.groups.map { $0.cells[currency]?.outflow ?? 0 }]
                colours = ["#d9822b"]
            case .income:
                series = [report.groups.map { $0.cells[currency]?.inflow ?? 0 }]
                colours = ["#2f9e44"]
            case .cashflow:
                series = [report.groups.map { $0.cells[currency]?.inflow ?? 0 }, report.groups.map { $0.cells[currency]?.outflow ?? 0 }]
                colours = ["#2f9e44", "#c92a2a"]
            }
            svg.barPanel(labels: report.groups.map(\.label), series: series, colours: colours, currency: currency,
                         frame: (x: 92, y: y0 + 18, width: width - 112, height: panelHeight - 18 - labelSpace(report.groups.map(\.label))),
                         showLabels: showLabels)
            var caption = currency
            if let total = report.total[currency] {
                caption += report.kind == .cashflow
                    ? "   in \(ReportText.amount(total.inflow)), out \(ReportText.amount(total.outflow)), net \(ReportText.amount(total.net))"
                    : "   total \(ReportText.amount(total.value(report.kind))) (\(total.count) transactions)"
            }
            svg.text(caption, x: 92, y: y0 + 12, size: 13, weight: "bold")
            if report.kind == .cashflow {
                svg.legend([("in", colours[0]), ("out", colours[1])], x: width - 150, y: y0 + 12)
            }
        }
        return svg.document()
    }

    /// Room under a panel for its group labels: more when they are turned.
    static func labelSpace(_ labels: [String]) -> Double {
        let longest = Double(labels.map { min($0.count, 22) }.max() ?? 0)
        return turned(labels) ? min(110, 16 + longest * 5.2) : 22
    }

    static func turned(_ labels: [String]) -> Bool {
        let longest = labels.map(\.count).max() ?? 0
        return Double(longest) * 7 > (width - 112) / Double(max(labels.count, 1))
    }

    static func svg(_ report: BalanceReport) -> String {
        var svg = SVG()
        svg.title("Balance of \(report.account.displayName) by \(report.grouping.rawValue)")
        let values = report.points.map(\.balance)
        guard !values.isEmpty else {
            svg.text("Nothing to show.", x: width / 2, y: height / 2, size: 16, anchor: "middle")
            return svg.document()
        }
        let frame = (x: 92.0, y: 64.0, width: width - 122, height: height - 64 - 56)
        let axis = Axis(values: values + [0])
        svg.yAxis(axis, frame: frame, currency: report.currency)
        let n = values.count
        func x(_ i: Int) -> Double { n == 1 ? frame.x + frame.width / 2 : frame.x + frame.width * Double(i) / Double(n - 1) }
        let points = values.enumerated().map { (x($0.offset), axis.y($0.element, frame: frame)) }
        svg.polyline(points, colour: "#1c7ed6")
        let disagreeing = Set(report.disagreements.map { CalendarDay.string($0.day) })
        for (i, point) in report.points.enumerated() where point.statementBalance != nil {
            let off = disagreeing.contains(CalendarDay.string(point.day))
            svg.circle(x: x(i), y: axis.y(point.balance, frame: frame), radius: off ? 5 : 3.5, colour: off ? "#c92a2a" : "#1c7ed6")
        }
        // X labels: at most about ten, evenly spread, the last always.
        let step = max(1, Int((Double(n) / 10).rounded(.up)))
        for i in stride(from: 0, to: n, by: step) where n - 1 - i >= step || i == n - 1 {
            let anchor = n == 1 ? "middle" : i == 0 ? "start" : i == n - 1 ? "end" : "middle"
            svg.text(report.points[i].label, x: x(i), y: frame.y + frame.height + 18, size: 11, anchor: anchor)
        }
        if (n - 1) % step != 0 {
            svg.text(report.points[n - 1].label, x: x(n - 1), y: frame.y + frame.height + 18, size: 11, anchor: n == 1 ? "middle" : "end")
        }
        let last = report.points[n - 1]
        svg.text("\(report.currency)   \(last.label): \(ReportText.amount(last.balance))   ● statement balance", x: frame.x, y: 52, size: 13, weight: "bold")
        if !report.disagreements.isEmpty {
            let total = report.disagreements.count
            let first = report.disagreements[0]
            svg.text("● \(total) statement balance(s) disagree with the transactions: \(CalendarDay.string(first.day)) by "
                     + "\(ReportText.amount(first.difference)) \(report.currency)" + (total > 1 ? ", …" : ""), x: frame.x,
                     y: height - 14, size: 12, colour: "#c92a2a")
        }
        return svg.document()
    }
}

/// A value axis with round ticks.
struct Axis {
    var low: Double
    var high: Double
    var step: Double
    var decimals: Int

    init(values: [Decimal]) {
        let numbers = values.map { NSDecimalNumber(decimal: $0).doubleValue }
        var low = numbers.min() ?? 0, high = numbers.max() ?? 1
        if low == high { high = low + 1 }
        let raw = (high - low) / 5
        let magnitude = pow(10, floor(log10(raw)))
        let step = [1.0, 2, 2.5, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? 10 * magnitude
        low = floor(low / step) * step
        high = ceil(high / step) * step
        self.low = low
        self.high = high
        self.step = step
        self.decimals = step >= 1 ? 0 : Int(ceil(-log10(step)))
    }

    var ticks: [Double] {
        var result: [Double] = []
        var value = low
        while value <= high + step / 2 {
            result.append(value)
            value += step
        }
        return result
    }

    func y(_ value: Decimal, frame: (x: Double, y: Double, width: Double, height: Double)) -> Double {
        y(NSDecimalNumber(decimal: value).doubleValue, frame: frame)
    }

    func y(_ value: Double, frame: (x: Double, y: Double, width: Double, height: Double)) -> Double {
        frame.y + frame.height - (value - low) / (high - low) * frame.height
    }

    /// A tick's text: `1,500` or `0.25`.
    func label(_ value: Double) -> String {
        let text = String(format: "%.\(decimals)f", value == 0 ? 0 : value)
        guard decimals == 0 else { return text }
        let negative = text.hasPrefix("-")
        let digits = Array(negative ? text.dropFirst() : Substring(text))
        var out = ""
        for (i, digit) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return (negative ? "-" : "") + out
    }
}

/// An SVG document built element by element.
struct SVG {
    private var body: [String] = []

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    static func number(_ value: Double) -> String { String(format: "%.1f", value) }

    mutating func title(_ text: String) {
        self.text(text, x: ReportChart.width / 2, y: 26, size: 17, anchor: "middle", weight: "bold")
    }

    mutating func text(_ text: String, x: Double, y: Double, size: Double, anchor: String = "start", weight: String = "normal",
                       colour: String = "#212529", rotate: Double? = nil) {
        let transform = rotate.map { " transform=\"rotate(\(SVG.number($0)) \(SVG.number(x)) \(SVG.number(y)))\"" } ?? ""
        body.append("<text x=\"\(SVG.number(x))\" y=\"\(SVG.number(y))\" font-size=\"\(SVG.number(size))\" text-anchor=\"\(anchor)\" "
                    + "font-weight=\"\(weight)\" fill=\"\(colour)\"\(transform)>\(SVG.escape(text))</text>")
    }

    mutating func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, colour: String, width: Double = 1) {
        body.append("<line x1=\"\(SVG.number(x1))\" y1=\"\(SVG.number(y1))\" x2=\"\(SVG.number(x2))\" y2=\"\(SVG.number(y2))\" "
                    + "stroke=\"\(colour)\" stroke-width=\"\(SVG.number(width))\"/>")
    }

    mutating func rect(x: Double, y: Double, width: Double, height: Double, colour: String, tooltip: String? = nil) {
        let title = tooltip.map { "<title>\(SVG.escape($0))</title>" } ?? ""
        body.append("<rect x=\"\(SVG.number(x))\" y=\"\(SVG.number(y))\" width=\"\(SVG.number(max(width, 0.5)))\" "
                    + "height=\"\(SVG.number(max(height, 0)))\" fill=\"\(colour)\">\(title)</rect>")
    }

    mutating func circle(x: Double, y: Double, radius: Double, colour: String) {
        body.append("<circle cx=\"\(SVG.number(x))\" cy=\"\(SVG.number(y))\" r=\"\(SVG.number(radius))\" fill=\"\(colour)\"/>")
    }

    mutating func polyline(_ points: [(Double, Double)], colour: String) {
        let list = points.map { "\(SVG.number($0.0)),\(SVG.number($0.1))" }.joined(separator: " ")
        body.append("<polyline points=\"\(list)\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2.5\" stroke-linejoin=\"round\"/>")
    }

    mutating func legend(_ entries: [(String, String)], x: Double, y: Double) {
        var left = x
        for (name, colour) in entries {
            rect(x: left, y: y - 10, width: 12, height: 12, colour: colour)
            text(name, x: left + 16, y: y, size: 12)
            left += 60
        }
    }

    /// A value axis: gridlines, tick labels and the currency.
    mutating func yAxis(_ axis: Axis, frame: (x: Double, y: Double, width: Double, height: Double), currency: String) {
        for tick in axis.ticks {
            let y = axis.y(tick, frame: frame)
            line(frame.x, y, frame.x + frame.width, y, colour: tick == 0 ? "#868e96" : "#e9ecef", width: tick == 0 ? 1.2 : 1)
            text(axis.label(tick), x: frame.x - 6, y: y + 4, size: 11, anchor: "end", colour: "#495057")
        }
        line(frame.x, frame.y, frame.x, frame.y + frame.height, colour: "#868e96")
        // The unit along the axis, turned: amounts in this currency.
        text(currency, x: 22, y: frame.y + frame.height / 2, size: 12, anchor: "middle", weight: "bold", colour: "#495057", rotate: -90)
    }

    /// Bars for groups: one bar per group and series, side by side, on an axis of the panel's currency.
    mutating func barPanel(labels: [String], series: [[Decimal]], colours: [String], currency: String,
                           frame: (x: Double, y: Double, width: Double, height: Double), showLabels: Bool) {
        let axis = Axis(values: series.flatMap { $0 } + [0])
        yAxis(axis, frame: frame, currency: currency)
        let slot = frame.width / Double(max(labels.count, 1))
        let barWidth = min(48, slot * 0.75 / Double(series.count))
        let zero = axis.y(0.0, frame: frame)
        let turned = ReportChart.turned(labels)
        for (i, label) in labels.enumerated() {
            let centre = frame.x + slot * (Double(i) + 0.5)
            for (s, values) in series.enumerated() {
                let value = values[i]
                let y = axis.y(value, frame: frame)
                let left = centre - barWidth * Double(series.count) / 2 + barWidth * Double(s)
                rect(x: left, y: min(y, zero), width: barWidth - 1, height: abs(zero - y), colour: colours[s],
                     tooltip: "\(label): \(ReportText.amount(value)) \(currency)")
            }
            guard showLabels else { continue }
            let shown = label.count > 22 ? String(label.prefix(21)) + "…" : label
            if turned {
                text(shown, x: centre + 3, y: frame.y + frame.height + 12, size: 10.5, anchor: "end", rotate: -40)
            } else {
                text(shown, x: centre, y: frame.y + frame.height + 15, size: 11, anchor: "middle")
            }
        }
    }

    func document() -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(ReportChart.width))" height="\(Int(ReportChart.height))" \
        viewBox="0 0 \(Int(ReportChart.width)) \(Int(ReportChart.height))" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">
        <rect width="100%" height="100%" fill="#ffffff"/>
        \(body.joined(separator: "\n"))
        </svg>
        """
    }
}
