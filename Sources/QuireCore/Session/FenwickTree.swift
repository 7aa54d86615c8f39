/// Counts over page numbers with O(log n) update, prefix sum and k-th search. The session keeps
/// one over visible pages (page ↔ visible index) and one over pages with errors (the gate), so
/// paging costs the same on a 3-page flow and a 10,000-page one.
struct FenwickTree: Sendable, Hashable {
    private var tree: [Int32]
    private(set) var total: Int = 0

    init(count: Int) {
        tree = [Int32](repeating: 0, count: count + 1)
    }

    /// Builds from 0/1 flags in O(n).
    init(flags: [Bool]) {
        tree = [Int32](repeating: 0, count: flags.count + 1)
        for (at, flag) in flags.enumerated() where flag {
            tree[at + 1] += 1
            total += 1
        }
        let n = flags.count
        var i = 1
        while i <= n {
            let parent = i + (i & -i)
            if parent <= n { tree[parent] += tree[i] }
            i += 1
        }
    }

    var count: Int { tree.count - 1 }

    mutating func add(_ index: Int, _ delta: Int) {
        WorkMeter.count()
        total += delta
        var i = index + 1
        while i < tree.count {
            tree[i] += Int32(delta)
            i += i & -i
        }
    }

    /// The sum over `0..<index`.
    func prefix(_ index: Int) -> Int {
        WorkMeter.count()
        var sum = 0
        var i = index
        while i > 0 {
            sum += Int(tree[i])
            i -= i & -i
        }
        return sum
    }

    /// The smallest index whose prefix through it exceeds `k` (the k-th set flag, 0-based).
    func find(_ k: Int) -> Int {
        WorkMeter.count()
        var position = 0
        var remaining = k
        var step = 1
        while step * 2 < tree.count { step *= 2 }
        while step > 0 {
            let next = position + step
            if next < tree.count && Int(tree[next]) <= remaining {
                position = next
                remaining -= Int(tree[next])
            }
            step /= 2
        }
        return position
    }
}
