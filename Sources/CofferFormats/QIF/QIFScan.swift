import CofferModel

/// What the first pass over a QIF file decides for the whole file: the order of day and month, the decimal mark,
/// and whether the file marks cleared transactions.
struct QIFFileFacts: Sendable {
    var dateOrder: QIFDateOrder
    var decimalComma: Bool
    /// Some record has a `C` mark (`*`, `c`, `X`, `R`): an unmarked one is then not yet cleared.
    var usesClearedMarks: Bool

    /// Reads every transaction record's dates and amounts.
    ///
    /// The order of `01/02/2026` is the one `given` names (`--date-order`); else the file's own dates decide (a
    /// `13/01/2026` can only be day first); a file whose every such date reads both ways fails, naming one, as does a
    /// file whose dates contradict each other. The decimal mark is `.` unless an amount reads only with a comma
    /// (`12,50`, `1.234,56`).
    static func scan(_ input: StatementInput, given: QIFDateOrder?) throws -> QIFFileFacts {
        var records = QIFRecordReader(try StatementLineReader(input))
        var inTransactions = false
        var onlyMDY: (line: Int, text: String)?
        var onlyDMY: (line: Int, text: String)?
        var ambiguous: (line: Int, text: String)?
        var invalidIn: [QIFDateOrder: (line: Int, text: String)] = [:]
        var dotOnly: (line: Int, text: String)?
        var commaOnly: (line: Int, text: String)?
        var cleared = false
        func at(_ line: Int, _ code: Character) -> SourceLocation {
            SourceLocation(file: input.name, line: line, element: String(code))
        }
        while let item = try records.next() {
            switch item {
            case .header(let text, _):
                if text.lowercased().hasPrefix("!type:") { inTransactions = QIFSection(header: text).holdsTransactions }
                else if text.lowercased().hasPrefix("!account") { inTransactions = false }
            case .record(let fields, _):
                guard inTransactions else { continue }
                for field in fields {
                    switch field.code {
                    case "D":
                        guard let date = QIFDate.parse(field.value) else {
                            throw CofferError(.badInput, "expected a date like 1/ 2'26, 01/02/2026 or 2026-01-02, found "
                                              + "'\(field.value)'", location: at(field.line, "D"))
                        }
                        let mdy = date.day(.mdy) != nil
                        let dmy = date.day(.dmy) != nil
                        if !mdy && !dmy {
                            throw CofferError(.badInput, "expected a date, found '\(field.value)', which is no day in "
                                              + "either order of day and month", location: at(field.line, "D"))
                        }
                        if mdy && !dmy, onlyMDY == nil { onlyMDY = (field.line, field.value) }
                        if dmy && !mdy, onlyDMY == nil { onlyDMY = (field.line, field.value) }
                        if !mdy, invalidIn[.mdy] == nil { invalidIn[.mdy] = (field.line, field.value) }
                        if !dmy, invalidIn[.dmy] == nil { invalidIn[.dmy] = (field.line, field.value) }
                        if date.isAmbiguous, ambiguous == nil { ambiguous = (field.line, field.value) }
                    case "T", "U", "$":
                        switch QIFAmount.onlyMark(field.value) {
                        case ".": if dotOnly == nil { dotOnly = (field.line, field.value) }
                        case ",": if commaOnly == nil { commaOnly = (field.line, field.value) }
                        default: break
                        }
                    case "C":
                        if !field.value.trimmingCharacters(in: .whitespaces).isEmpty { cleared = true }
                    default: break
                    }
                }
            }
        }
        let order: QIFDateOrder
        if let given {
            if let bad = invalidIn[given] {
                throw CofferError(.badInput, "expected a date in the order --date-order \(given.rawValue) gives, found "
                                  + "'\(bad.text)', which is no day in that order", location: at(bad.line, "D"))
            }
            order = given
        } else if let mdy = onlyMDY, let dmy = onlyDMY {
            throw CofferError(.badInput, "the dates disagree on the order of day and month: '\(mdy.text)' (line \(mdy.line)) "
                              + "is month first, '\(dmy.text)' day first; the file cannot be trusted",
                              location: at(dmy.line, "D"))
        } else if onlyMDY != nil {
            order = .mdy
        } else if onlyDMY != nil {
            order = .dmy
        } else if let ambiguous {
            throw CofferError(.badInput, "the dates are ambiguous: '\(ambiguous.text)' could be month/day or day/month, "
                              + "and no date in the file tells; give --date-order mdy (Quicken in the US) or dmy "
                              + "(day first, as in Europe)", location: at(ambiguous.line, "D"))
        } else {
            order = .mdy
        }
        if let dot = dotOnly, let comma = commaOnly {
            throw CofferError(.badInput, "the amounts disagree on the decimal mark: '\(dot.text)' (line \(dot.line)) reads "
                              + "only with a decimal point, '\(comma.text)' only with a decimal comma",
                              location: at(comma.line, "T"))
        }
        return QIFFileFacts(dateOrder: order, decimalComma: commaOnly != nil, usesClearedMarks: cleared)
    }
}
