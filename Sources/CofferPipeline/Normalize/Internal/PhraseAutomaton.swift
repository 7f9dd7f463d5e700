/// An Aho–Corasick automaton over folded text: finds every phrase of a set in one pass.
///
/// For example, with the phrases `[" starbucks ", " whole foods "]` (folded symbols), scanning
/// `"WHOLEFDS #123"` reports nothing and scanning `"Whole Foods Market"` reports phrase 1.
///
/// Why hand-written: rule sets grow to thousands of merchants, and testing each rule with `contains` (or a
/// `Regex` alternation) would cost thousands of string scans per transaction. The automaton is a dense
/// transition table over a 39-symbol alphabet (see `TextFolding`), so a scan costs one table lookup per input
/// byte whatever the number of phrases. Surrounding a phrase with spaces makes it match whole words only; a
/// leading `TextFolding.start` anchors it at the start of the text.
struct PhraseAutomaton: Sendable {
    private let transitions: [Int32]
    /// The phrase that ends in each state, or -1.
    private let terminal: [Int32]
    /// The nearest state on the failure chain that ends a phrase, or -1.
    private let outputLink: [Int32]

    /// Builds the automaton; a phrase identical to an earlier one is never reported (the first wins).
    init(phrases: [[UInt8]]) {
        let width = TextFolding.alphabetSize
        var goto: [Int32] = Array(repeating: -1, count: width)
        var terminal: [Int32] = [-1]
        for (index, phrase) in phrases.enumerated() {
            var state = 0
            for symbol in phrase {
                let slot = state &* width &+ Int(symbol)
                if goto[slot] < 0 {
                    goto[slot] = Int32(terminal.count)
                    terminal.append(-1)
                    goto.append(contentsOf: repeatElement(-1, count: width))
                }
                state = Int(goto[slot])
            }
            if terminal[state] < 0 { terminal[state] = Int32(index) }
        }
        // Breadth-first: resolve failure links and fill missing transitions into a complete DFA.
        var fail = Array(repeating: Int32(0), count: terminal.count)
        var outputLink = Array(repeating: Int32(-1), count: terminal.count)
        var queue: [Int] = []
        for symbol in 0..<width {
            let child = goto[symbol]
            if child < 0 { goto[symbol] = 0 } else { queue.append(Int(child)) }
        }
        var head = 0
        while head < queue.count {
            let state = queue[head]
            head &+= 1
            let failState = Int(fail[state])
            outputLink[state] = terminal[failState] >= 0 ? Int32(failState) : outputLink[failState]
            for symbol in 0..<width {
                let slot = state &* width &+ symbol
                let viaFail = goto[failState &* width &+ symbol]
                if goto[slot] < 0 {
                    goto[slot] = viaFail
                } else {
                    fail[Int(goto[slot])] = viaFail
                    queue.append(Int(goto[slot]))
                }
            }
        }
        self.transitions = goto
        self.terminal = terminal
        self.outputLink = outputLink
    }

    /// Tells `visitor` the index of every phrase that occurs in the folded `text` (once per occurrence).
    @inline(__always)
    func scan<Visitor: PhraseVisitor>(_ text: String, _ visitor: inout Visitor) {
        transitions.withUnsafeBufferPointer { table in
            terminal.withUnsafeBufferPointer { terminal in
                outputLink.withUnsafeBufferPointer { links in
                    var stepper = Stepper(table: table, terminal: terminal, links: links, visitor: visitor)
                    TextFolding.fold(text, into: &stepper)
                    visitor = stepper.visitor
                }
            }
        }
    }

    private struct Stepper<Visitor: PhraseVisitor>: SymbolSink {
        let table: UnsafeBufferPointer<Int32>
        let terminal: UnsafeBufferPointer<Int32>
        let links: UnsafeBufferPointer<Int32>
        var visitor: Visitor
        var state = 0

        init(table: UnsafeBufferPointer<Int32>, terminal: UnsafeBufferPointer<Int32>, links: UnsafeBufferPointer<Int32>,
             visitor: Visitor) {
            self.table = table
            self.terminal = terminal
            self.links = links
            self.visitor = visitor
        }

        @inline(__always)
        mutating func emit(_ symbol: UInt8) {
            state = Int(table[state &* TextFolding.alphabetSize &+ Int(symbol)])
            var probe = terminal[state] >= 0 ? state : Int(links[state])
            while probe >= 0 {
                visitor.found(Int(terminal[probe]))
                probe = Int(links[probe])
            }
        }
    }
}

/// Receives the phrases a scan finds.
protocol PhraseVisitor {
    mutating func found(_ phrase: Int)
}
