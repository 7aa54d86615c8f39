import Testing

@testable import QuireCore

/// `ReentrancyQueue`: events sent while earlier ones are handed out wait and run after, in order.
@Suite struct ReentrancyQueueTests {
    /// A front built the way `SessionHost` and the engine use the queue: each event is applied,
    /// then handed out (to `sends`, which says what the handout sends back), then the waiting
    /// events run.
    final class Front {
        var queue = ReentrancyQueue<String>()
        /// What the handout of an event sends, by event.
        var sends: [String: [String]] = [:]
        /// The events applied, in the order they ran.
        var ran: [String] = []
        /// How many handouts were running when each event ran.
        var ranInside: [String: Int] = [:]
        /// Draining stops once this is true (the engine freed).
        var stop = false
        /// Sets `stop` when this event runs.
        var stopAfter: String?

        @discardableResult
        func send(_ event: String) -> Bool {
            guard queue.admit(event) else { return false }
            ran.append(event)
            ranInside[event] = queue.depth
            if event == stopAfter { stop = true }
            queue.begin()
            for sent in sends[event] ?? [] { #expect(!send(sent), "sent during a handout: waits") }
            queue.end()
            while !stop, let next = queue.next() { send(next) }
            return true
        }
    }

    @Test func withNothingHandedOutAnEventRunsAtOnce() {
        var queue = ReentrancyQueue<Int>()
        #expect(queue.admit(1) == true)
        #expect(queue.count == 0)
        #expect(queue.next() == nil)
        #expect(!queue.isBusy)
    }

    @Test func eventsSentDuringAHandoutWaitUntilItEndsThenComeBackFirstSentFirst() {
        var queue = ReentrancyQueue<Int>()
        queue.begin()
        #expect(queue.admit(1) == false)
        #expect(queue.admit(2) == false)
        #expect(queue.admit(3) == false)
        #expect(queue.count == 3)
        #expect(queue.next() == nil, "nothing comes back while the handout runs")
        queue.end()
        #expect(queue.next() == 1)
        #expect(queue.next() == 2)
        #expect(queue.next() == 3)
        #expect(queue.next() == nil)
        #expect(queue.count == 0)
        // Used again after emptying: the order holds.
        queue.begin()
        #expect(queue.admit(4) == false)
        queue.end()
        #expect(queue.admit(5) == true, "nothing handed out: runs at once, even though 4 waits")
        #expect(queue.next() == 4)
    }

    @Test func nestedHandoutsHoldTheWaitingEventsUntilTheOutermostEnds() {
        var queue = ReentrancyQueue<Int>()
        queue.begin()
        queue.begin()
        #expect(queue.depth == 2)
        #expect(queue.admit(1) == false)
        queue.end()
        #expect(queue.isBusy)
        #expect(queue.admit(2) == false)
        #expect(queue.next() == nil)
        queue.end()
        #expect(!queue.isBusy)
        #expect(queue.next() == 1)
        #expect(queue.next() == 2)
    }

    @Test func anEventSentFromAHandoutRunsAfterItOutsideAnyHandout() {
        let front = Front()
        front.sends = ["a": ["b", "c"]]
        #expect(front.send("a"))
        #expect(front.ran == ["a", "b", "c"])
        #expect(front.ranInside == ["a": 0, "b": 0, "c": 0])
        #expect(front.queue.count == 0)
    }

    @Test func eventsSentByAWaitingEventsHandoutComeAfterThoseAlreadyWaiting() {
        let front = Front()
        // a's handout sends b and c; b's sends d (while c still waits); d's sends e.
        front.sends = ["a": ["b", "c"], "b": ["d"], "d": ["e"]]
        front.send("a")
        #expect(front.ran == ["a", "b", "c", "d", "e"])
    }

    @Test func everyEventSentRunsOnceInTheOrderItWasSent() {
        // Random trees of sends: the events run in the order they were sent, which is the
        // tree's breadth-first order, and none is lost or run twice.
        var random = SplitMix64(seed: 22)
        for _ in 0..<200 {
            let front = Front()
            var order = ["0"]
            var index = 0
            var made = 1
            while index < order.count {
                let children = made < 40 ? random.below(4) : 0
                let sent = (0..<children).map { _ in
                    defer { made += 1 }
                    return String(made)
                }
                front.sends[order[index]] = sent
                order += sent
                index += 1
            }
            front.send("0")
            #expect(front.ran == order)
            #expect(front.ranInside.values.allSatisfy { $0 == 0 })
            #expect(front.queue.count == 0)
        }
    }

    @Test func drainingStopsWhenAskedAndTheRestWaitUntilDropped() {
        let front = Front()
        front.sends = ["a": ["b", "c", "d"]]
        // b's run asks the drain to stop (as the engine freed during a delivery does).
        front.stopAfter = "b"
        front.send("a")
        #expect(front.ran == ["a", "b"])
        #expect(front.queue.count == 2, "c and d still wait")
        front.queue.removeAll()
        #expect(front.queue.count == 0)
        #expect(front.queue.next() == nil)
        front.stop = false
        front.send("e")
        #expect(front.ran == ["a", "b", "e"], "what was dropped never runs")
    }
}
