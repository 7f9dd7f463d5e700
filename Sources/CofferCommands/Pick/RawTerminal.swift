import Coffer
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The terminal in the state a full-screen picker needs: keys read one by one without echo, on the alternate screen
/// with the cursor hidden. `restore()` puts everything back; a signal that ends the process restores it first
/// (`ExitSignals`). Written on termios directly: no terminal library on this machine covers raw input and the
/// alternate screen (Rainbow, the one carried, only colours text), and it is forty lines.
final class RawTerminal {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var saved: termios?

    private let input: Int32
    private let output: Int32

    /// Enters raw mode on `input` and the alternate screen on `output`; throws when either is not a terminal.
    init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) throws {
        self.input = input
        self.output = output
        var original = termios()
        guard tcgetattr(input, &original) == 0 else {
            throw CofferError(.usage, "cannot read the terminal's settings: \(String(cString: strerror(errno)))")
        }
        var raw = original
        // No line editing, echo, signals from keys (Ctrl-C arrives as a key and cancels), flow control or CR→NL.
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | INLCR | ISTRIP)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        Self.lock.withLock { Self.saved = original }
        guard tcsetattr(input, TCSAFLUSH, &raw) == 0 else {
            Self.lock.withLock { Self.saved = nil }
            throw CofferError(.usage, "cannot put the terminal in raw mode: \(String(cString: strerror(errno)))")
        }
        write("\u{1B}[?1049h\u{1B}[?25l")
    }

    /// The terminal's size, or 80×24 when it does not say.
    var size: (width: Int, height: Int) {
        var size = winsize()
        if ioctl(output, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 {
            return (Int(size.ws_col), Int(size.ws_row))
        }
        return (80, 24)
    }

    func draw(_ lines: [String]) {
        var screen = "\u{1B}[H"
        for (i, line) in lines.enumerated() {
            screen += line + "\u{1B}[K" + (i == lines.count - 1 ? "" : "\r\n")
        }
        write(screen + "\u{1B}[J")
    }

    /// Reads what is available (blocking for the first byte); empty at end of input.
    func read() -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let count = Glibc.read(input, &buffer, buffer.count)
            if count > 0 { return Array(buffer[0..<count]) }
            if count < 0, errno == EINTR { continue }
            return []
        }
    }

    /// Whether another byte arrives within `milliseconds` (tells a lone Escape from the start of an arrow key).
    func moreInput(within milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, milliseconds) > 0
    }

    func restore() {
        write("\u{1B}[?25h\u{1B}[?1049l")
        Self.restoreSettings(input)
    }

    /// For a signal handler: the settings back as they were, the cursor shown, the main screen back.
    static func restoreForSignal() {
        guard lock.withLock({ saved != nil }) else { return }
        let text = "\u{1B}[?25h\u{1B}[?1049l"
        _ = text.withCString { Glibc.write(STDOUT_FILENO, $0, strlen($0)) }
        restoreSettings(STDIN_FILENO)
    }

    private static func restoreSettings(_ input: Int32) {
        lock.withLock {
            if var original = saved {
                tcsetattr(input, TCSAFLUSH, &original)
                saved = nil
            }
        }
    }

    private func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.write(output, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 { if errno == EINTR { continue } else { return } }
            offset += written
        }
    }
}

/// Turns the bytes a terminal sends into the picker's keys: printable text (UTF-8, several bytes a character),
/// Backspace, Ctrl-U, Tab and Space (select), Enter, Escape and Ctrl-C (cancel), arrows, Page Up/Down, Home, End
/// (as xterm and the Linux console send them, `ESC [ …` or `ESC O …`). The caller waits a moment after a read that
/// ends inside an escape sequence (`endsInEscape`), so an Escape still last in the bytes is the Escape key.
struct KeyDecoder {
    /// The start of a UTF-8 character whose other bytes come with the next read.
    private var partial: [UInt8] = []

    /// Whether `bytes` end with an Escape or an unfinished escape sequence.
    static func endsInEscape(_ bytes: [UInt8]) -> Bool {
        guard let escape = bytes.lastIndex(of: 0x1B) else { return false }
        return escapeSequence(bytes, at: escape).complete == false
    }

    mutating func keys(_ bytes: [UInt8]) -> [PickerState.Key] {
        let input = partial + bytes
        partial = []
        var keys: [PickerState.Key] = []
        var text: [UInt8] = []
        func key(_ key: PickerState.Key) {
            if !text.isEmpty { keys.append(.text(String(decoding: text, as: UTF8.self))); text = [] }
            keys.append(key)
        }
        var i = 0
        while i < input.count {
            let byte = input[i]
            switch byte {
            case 0x1B:
                let (found, length, _) = Self.escapeSequence(input, at: i)
                if let found { key(found) }
                i += length
            case 0x03: key(.cancel); i += 1
            case 0x0D, 0x0A: key(.enter); i += 1
            case 0x7F, 0x08: key(.backspace); i += 1
            case 0x15: key(.clearFilter); i += 1
            case 0x09, 0x20: key(.toggle); i += 1
            case 0x0E: key(.down); i += 1  // Ctrl-N
            case 0x10: key(.up); i += 1  // Ctrl-P
            case 0..<0x20: i += 1  // other control keys: ignored
            default:
                let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                if i + length > input.count {
                    partial = Array(input[i...])
                    i = input.count
                } else {
                    text += input[i..<(i + length)]
                    i += length
                }
            }
        }
        if !text.isEmpty { keys.append(.text(String(decoding: text, as: UTF8.self))) }
        return keys
    }

    /// The key an escape sequence at `start` stands for (nil: a key the picker does not use), its length, and
    /// whether it is complete. An Escape not followed by `[` or `O` is the Escape key.
    static func escapeSequence(_ bytes: [UInt8], at start: Int) -> (key: PickerState.Key?, length: Int, complete: Bool) {
        guard start + 1 < bytes.count else { return (.cancel, 1, false) }
        let kind = bytes[start + 1]
        guard kind == UInt8(ascii: "[") || kind == UInt8(ascii: "O") else { return (.cancel, 1, true) }
        // CSI: parameters (digits, ';') then one final byte in 0x40...0x7E.
        var end = start + 2
        while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
        guard end < bytes.count else { return (nil, bytes.count - start, false) }
        let parameters = String(decoding: bytes[(start + 2)..<end], as: UTF8.self)
        let key: PickerState.Key?
        switch bytes[end] {
        case UInt8(ascii: "A"): key = .up
        case UInt8(ascii: "B"): key = .down
        case UInt8(ascii: "H"): key = .home
        case UInt8(ascii: "F"): key = .end
        case UInt8(ascii: "~"):
            switch parameters {
            case "5": key = .pageUp
            case "6": key = .pageDown
            case "1", "7": key = .home
            case "4", "8": key = .end
            default: key = nil
            }
        default: key = nil
        }
        return (key, end + 1 - start, true)
    }
}
