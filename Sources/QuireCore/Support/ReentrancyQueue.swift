/// Events sent while earlier ones are still being handed out: they wait, and run after, in the
/// order they were sent. The one place the fronts handle re-entrancy (`SessionHost` while its
/// views render, the C engine while its listeners are told).
///
/// A front calls `begin()` before it hands an event out (to views, listeners) and `end()` after;
/// an event it is sent meanwhile is `admit`ted to wait instead of running inside the handout.
/// Once nothing is handed out, `next()` gives the waiting events back one at a time, first sent
/// first; running one may hand it out again and make more wait, and those come after the ones
/// already waiting. The owner drains with `while let event = queue.next() { send(event) }`, and
/// stops early by leaving the loop (the rest stay waiting until `removeAll()`).
package struct ReentrancyQueue<Element> {
    /// How many handouts are running (`begin()` calls not yet ended).
    package private(set) var depth = 0
    /// The waiting elements from `head` on, first sent first (those before `head` were taken).
    private var waiting: [Element] = []
    private var head = 0

    package init() {}

    /// True while something is being handed out: an element admitted now waits.
    package var isBusy: Bool { depth > 0 }

    /// How many elements are waiting.
    package var count: Int { waiting.count - head }

    /// Whether `element` may run now: true when nothing is being handed out. Otherwise it waits,
    /// after those already waiting, and the answer is false.
    package mutating func admit(_ element: Element) -> Bool {
        guard isBusy else { return true }
        waiting.append(element)
        return false
    }

    /// A handout starts: elements admitted until its `end()` wait.
    package mutating func begin() {
        depth += 1
    }

    /// The handout begun last ends.
    package mutating func end() {
        precondition(depth > 0, "ReentrancyQueue.end() without begin()")
        depth -= 1
    }

    /// The first waiting element, taken off the queue; nil while something is being handed out
    /// (it runs once the handout ends) or when none waits.
    package mutating func next() -> Element? {
        guard !isBusy, head < waiting.count else { return nil }
        let element = waiting[head]
        head += 1
        if head == waiting.count {
            waiting.removeAll(keepingCapacity: true)
            head = 0
        }
        return element
    }

    /// Drops every waiting element (their sender is gone).
    package mutating func removeAll() {
        waiting.removeAll()
        head = 0
    }
}

extension ReentrancyQueue: Sendable where Element: Sendable {}
