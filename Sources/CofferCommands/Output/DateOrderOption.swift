import ArgumentParser
import Coffer

/// `--date-order dmy|mdy`: the order of day and month in QIF dates that read both ways.
enum DateOrderOption: String, ExpressibleByArgument, CaseIterable {
    case dmy, mdy

    var order: ImportOptions.DateOrder { self == .dmy ? .dayMonthYear : .monthDayYear }
}
