import Coffer
import Foundation

/// What `coffer pick` shows and what each key does, apart from the terminal: a list of transactions, a filter
/// typed by the person, a highlighted row and a selection. Pure, so the tests drive it key by key.
struct PickerState {
    /// One transaction as the picker lists it.
    struct Row {
        var transaction: Transaction
        /// The row as printed: date, signed amount and currency, description, account.
        var text: String
        /// `text` folded as `--text` folds (`SearchFolding`), which the filter is compared with.
        var folded: String
    }

    enum Key: Equatable {
        case text(String)
        case backspace, clearFilter
        case up, down, pageUp, pageDown, home, end
        case toggle
        case enter, cancel
    }

    enum Outcome: Equatable {
        case picking
        /// The chosen transactions' ids, in the list's order.
        case confirmed([UUID])
        case cancelled
    }

    private(set) var rows: [Row]
    private(set) var filter = ""
    /// Indices into `rows` the filter keeps, in order.
    private(set) var visible: [Int]
    /// Index into `visible` of the highlighted row.
    private(set) var cursor = 0
    /// Index into `visible` of the first row on screen.
    private(set) var top = 0
    /// Indices into `rows`; kept while the filter hides them.
    private(set) var selected: Set<Int> = []

    init(_ transactions: [Transaction], accountNames: [UUID: String]) {
        let amounts = transactions.map { Text.signed($0.transactionAmount, $0.creditDebitIndicator) }
        let amountWidth = amounts.map(\.count).max() ?? 0
        rows = zip(transactions, amounts).map { t, amount in
            let padded = String(repeating: " ", count: amountWidth - amount.count) + amount
            var text = "\(Text.date(t))  \(padded) \(t.transactionAmount.currencyCode)  " + t.transactionDescription
            if let name = accountNames[t.accountID] { text += "  · " + name }
            return Row(transaction: t, text: text, folded: SearchFolding.fold(text))
        }
        visible = Array(rows.indices)
    }

    /// Applies one key; `pageSize` is the number of rows on screen.
    mutating func handle(_ key: Key, pageSize: Int) -> Outcome {
        let page = max(1, pageSize)
        switch key {
        case .text(let typed):
            setFilter(filter + typed)
        case .backspace:
            if !filter.isEmpty { setFilter(String(filter.dropLast())) }
        case .clearFilter:
            setFilter("")
        case .up: move(to: cursor - 1, page: page)
        case .down: move(to: cursor + 1, page: page)
        case .pageUp: move(to: cursor - page, page: page)
        case .pageDown: move(to: cursor + page, page: page)
        case .home: move(to: 0, page: page)
        case .end: move(to: visible.count - 1, page: page)
        case .toggle:
            guard visible.indices.contains(cursor) else { break }
            let row = visible[cursor]
            if selected.remove(row) == nil { selected.insert(row) }
            move(to: cursor + 1, page: page)
        case .enter:
            // Nothing marked: the highlighted row is the choice (as a one-item picker would have it).
            if selected.isEmpty {
                guard visible.indices.contains(cursor) else { return .picking }
                return .confirmed([rows[visible[cursor]].transaction.id])
            }
            return .confirmed(selected.sorted().map { rows[$0].transaction.id })
        case .cancel:
            return .cancelled
        }
        return .picking
    }

    private mutating func setFilter(_ text: String) {
        filter = text
        let needle = SearchFolding.fold(text)
        visible = needle.isEmpty ? Array(rows.indices) : rows.indices.filter { rows[$0].folded.contains(needle) }
        cursor = 0
        top = 0
    }

    private mutating func move(to index: Int, page: Int) {
        guard !visible.isEmpty else { cursor = 0; top = 0; return }
        cursor = min(max(index, 0), visible.count - 1)
        if cursor < top { top = cursor }
        if cursor >= top + page { top = cursor - page + 1 }
    }

    /// The screen: a filter line, a status line, then the rows from `top`, each cut to `width` columns. The
    /// highlighted row starts with `>`, a selected one shows `[x]`; with `color`, the highlighted row is shown in
    /// reverse video and credits in green.
    func render(width: Int, height: Int, color: Bool) -> [String] {
        let width = max(20, width)
        var lines: [String] = []
        lines.append(cut("Pick transactions, filter: " + filter + "_", width))
        let status = "\(visible.count)/\(rows.count) shown, \(selected.count) selected | "
            + "type to filter, space select, enter ok, esc cancel"
        lines.append(cut(status, width))
        let page = max(1, height - 2)
        for position in top..<min(visible.count, top + page) {
            let index = visible[position]
            let row = rows[index]
            let mark = (position == cursor ? ">" : " ") + (selected.contains(index) ? "[x] " : "[ ] ")
            let line = cut(mark + row.text, width)
            if color && position == cursor {
                lines.append("\u{1B}[7m" + line + "\u{1B}[0m")
            } else if color && row.transaction.creditDebitIndicator == .credit {
                lines.append("\u{1B}[32m" + line + "\u{1B}[0m")
            } else {
                lines.append(line)
            }
        }
        if visible.isEmpty { lines.append(rows.isEmpty ? "  (no transactions match the filters)" : "  (nothing matches '\(filter)')") }
        return lines
    }

    private func cut(_ text: String, _ width: Int) -> String {
        text.count <= width ? text : String(text.prefix(width - 1)) + "…"
    }
}
