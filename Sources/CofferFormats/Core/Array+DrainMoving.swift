extension Array {
    /// Hands each element to `body` in order, moved out rather than copied, then empties the array (keeping its
    /// capacity). A `placeholder` takes each element's place as it leaves, so the array stays whole whatever
    /// `body` does or throws; it should be a value without references (an enum case without a payload), whose
    /// destruction costs nothing.
    ///
    /// The import's events go from stage to stage this way. Iterating the array copied each event out, retaining
    /// a dozen strings of a transaction, and emptying it then released them again; swift-collections' `Deque`
    /// gives elements up by moving them, but its `append` copies the element it is given.
    @inlinable
    package mutating func drainMoving(leaving placeholder: Element,
                                      _ body: (consuming Element) throws -> Void) rethrows {
        defer { removeAll(keepingCapacity: true) }
        try withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for index in buffer.indices {
                let element = (base + index).move()
                (base + index).initialize(to: placeholder)
                try body(consume element)  // without `consume` the optimizer copied it (callgrind)
            }
        }
    }
}
