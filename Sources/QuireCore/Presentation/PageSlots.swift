/// A page a pager front keeps built, and where it stands.
public struct PageSlot: Sendable, Hashable {
    /// The page's visible index.
    public var index: Int
    /// Where the page is drawn, in visible-page units: `index` itself, or `index ± count` for a
    /// wrapped neighbour (at `-1` or `count`). The page is drawn at `(slot - position)` viewport
    /// widths from the pager's left edge.
    public var slot: Int
    /// Less than one page from the position: part of it shows now, so it is built at once; the
    /// others are wanted soon and may be built when the front is idle.
    public var onScreen: Bool
}

extension Session {
    /// The pages a pager front keeps built (CONTRACT §2, "only visible pages exist"): the current
    /// page and its neighbours, the two pages the position lies between (an indicator jump or a
    /// wrap passes pages that are not neighbours), and while a move runs, its target and the
    /// target's neighbours. Each page once, at the slot nearest the position; sorted by index.
    /// Pages not listed are dropped.
    public var pageSlots: [PageSlot] {
        let count = pageCount
        guard count > 0 else { return [] }
        let position = pagerPresentation.position
        let wraps = flow.paging.wrap && count > 1
        let current = currentIndex
        var slots = [current - 1, current, current + 1]
        let below = Int(position.rounded(.down))
        slots += [below, below + 1]
        if let transition, transition.to != current {
            let target = Int(position.rounded()) + (transition.to - Self.normalize(position, count: count))
            slots += [target - 1, target, target + 1]
        }
        var nearest: [Int: Int] = [:]  // visible index → slot
        for slot in slots {
            let index: Int
            if slot >= 0 && slot < count {
                index = slot
            } else if wraps {
                index = ((slot % count) + count) % count
            } else {
                continue
            }
            if let kept = nearest[index], abs(Double(kept) - position) <= abs(Double(slot) - position) { continue }
            nearest[index] = slot
        }
        return nearest.keys.sorted().map { index in
            let slot = nearest[index]!
            return PageSlot(index: index, slot: slot, onScreen: abs(Double(slot) - position) < 1)
        }
    }
}
