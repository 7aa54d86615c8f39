"""An independent model of the Quire session contract (CONTRACT.md §2-§4, §6.6).

Written from /work/shared/CONTRACT.md and docs/session-semantics.md only, never from the
engine's code, so that `scripts/model-check` can compare the two. Standard library only.

Scope (docs/model.md): pages with simple `visibleIf` conditions; text and toggle fields;
buttons, indicator taps, keys and their GDK aliases, drags (with rubber band, snap and fling),
takeovers, wrapping, ticks and `settle`, `type`/`edit`/`BackSpace`, focus basics (taps, Tab,
Return, Escape, background), the gate, reveal on leave, and completion. Pickers, apply,
`back: false`, auto-advance and announcements are out of scope: the generated flows do not use
them.
"""

import math

EPS = 1e-9

KEY_ALIASES = {
    "ISO_Left_Tab": "shift+Tab", "KP_Tab": "Tab", "KP_Enter": "Return", "Prior": "Page_Up",
    "Next": "Page_Down", "KP_Prior": "Page_Up", "KP_Next": "Page_Down",
    "KP_Page_Up": "Page_Up", "KP_Page_Down": "Page_Down", "KP_Up": "Up", "KP_Down": "Down",
    "KP_Left": "Left", "KP_Right": "Right", "KP_Home": "Home", "KP_End": "End",
}


def ease(t):
    return 1.0 - (1.0 - t) ** 3


def round_us(ms):
    """A tick in whole microseconds, rounded half away from zero (§2)."""
    us = abs(ms) * 1000.0
    r = math.floor(us + 0.5)
    return int(r) if ms >= 0 else -int(r)


def whole(x):
    """§6.6: a position within 1e-9 of a whole page is that page."""
    r = round(x)
    if abs(x - r) <= EPS:
        return float(r) + 0.0
    return x


class Ignored(Exception):
    def __init__(self, reason):
        self.reason = reason


class Anim:
    """A programmatic or released animation: from `start` to `target` (unwrapped)."""

    def __init__(self, start, target, kind):
        self.start = start
        self.target = target
        self.elapsed = 0
        self.kind = kind  # "move" or "spring"


class Drag:
    def __init__(self, anchor, r0, heading):
        self.anchor = anchor  # unwrapped page the drag is laid out around
        self.r0 = r0  # the drag's offset (pages, forward positive) when it took over
        self.dx = 0.0
        self.heading = heading  # a takeover's target (normalized) until the drag reveals a page
        self.revealed = None  # unwrapped neighbour revealed, or None
        self.moved = False


# Readings where the engine and this model disagree and the model follows the contract's text
# (docs/model.md, "Disagreements"). `scripts/model-check --accept NAME` makes the model take
# the engine's reading instead, so that a long run can look past a known disagreement.
ENGINE_READINGS = {
    "takeover-reveals-at-touch": "a takeover announces the page its offset shows at dragBegin",
    "heading-dropped-on-reveal": "a takeover forgets its target once the drag shows that same page",
    "takeover-progress-is-distance": "a takeover's progress towards its kept target is the distance moved",
}


class Model:
    def __init__(self, flow, width=800, accept=()):
        self.accept = set(accept)
        self.flow = flow
        p = flow.get("paging", {})
        self.wrap = p.get("wrap", False)
        self.swipe = p.get("swipe", True)
        self.gate = p.get("gate", "valid")
        ind = p.get("indicator", {})
        self.ind_style = ind.get("style", "dots")
        self.hides_single = ind.get("hidesForSinglePage", True)
        self.snap = p.get("snapDistance", 0.5)
        self.fling = p.get("flingVelocity", 400)
        self.duration_us = round_us(p.get("animationMs", 250))
        self.width = float(width)
        self.pages = flow["pages"]
        self.fields = {}
        self.field_page = {}
        for page in self.pages:
            for f in page.get("fields", []):
                self.fields[f["id"]] = f
                self.field_page[f["id"]] = page["id"]
        self.values = {fid: f.get("default") for fid, f in self.fields.items()}
        self.revealed = set()
        self.index = 0
        self.position = 0.0
        self.motion = None  # Anim or Drag
        self.motion_target_u = None  # a takeover's interrupted target, unwrapped
        self.announced = None  # last page announced by pageWillChange in this transition
        self.focus = None
        self.completed = None
        self.out = []

    # ----- visibility, validation -----
    def visible_pages(self):
        vis = []
        hidden_fields = set()
        for page in self.pages:
            cond = page.get("visibleIf")
            ok = True if cond is None else self.cond(cond, hidden_fields)
            if ok:
                vis.append(page)
            else:
                hidden_fields.update(f["id"] for f in page.get("fields", []))
        return vis

    def cond(self, c, hidden):
        if "all" in c:
            return all(self.cond(x, hidden) for x in c["all"])
        if "any" in c:
            return any(self.cond(x, hidden) for x in c["any"])
        if "not" in c:
            return not self.cond(c["not"], hidden)
        v = None if c["field"] in hidden else self.values.get(c["field"])
        if "equals" in c:
            return v == c["equals"]
        if "notEquals" in c:
            return v != c["notEquals"]
        if "filled" in c:
            return (v is not None and v != "") == c["filled"]
        raise ValueError(c)

    def count(self):
        return len(self.visible_pages())

    def page_fields(self, i):
        return self.visible_pages()[i].get("fields", [])

    def error(self, fid):
        f = self.fields[fid]
        v = self.values[fid]
        if f["kind"] == "toggle":
            return "required" if f.get("required") and v is not True else None
        if v is None or v == "":
            return "required" if f.get("required") else None
        n = len(v)
        if "minLength" in f and n < f["minLength"]:
            return "minLength"
        if "maxLength" in f and n > f["maxLength"]:
            return "maxLength"
        return None

    def page_errors(self, i):
        return {f["id"]: e for f in self.page_fields(i) if (e := self.error(f["id"]))}

    def errors(self):
        vis = {f["id"] for p in self.visible_pages() for f in p.get("fields", [])}
        return {fid: e for fid in sorted(self.revealed) if fid in vis and (e := self.error(fid))}

    def gated(self, i):
        return self.gate == "valid" and bool(self.page_errors(i))

    # ----- state -----
    def norm(self, u):
        n = self.count()
        return int(u) % n

    def heading(self):
        """The (normalized) page the pager is heading to."""
        if isinstance(self.motion, Anim):
            return self.norm(self.motion.target)
        return self.index

    def neighbour_open(self, anchor, s):
        n = self.count()
        an = self.norm(anchor)
        exists = (self.wrap and n >= 2) or 0 <= an + s < n
        return exists and not (s > 0 and self.gated(an))

    def drag_layout(self, d):
        """Position and revealed page of a drag (unwrapped), from its offset in pages."""
        r = d.r0 - d.dx / self.width
        a = d.anchor
        if abs(r) <= EPS:
            pos = whole(a)
        else:
            s = 1 if r > 0 else -1
            m = abs(r)
            if not self.neighbour_open(a, s):
                pos = whole(a + s * min(0.35 * m, 1.0))
            elif m <= 1:
                pos = whole(a + s * m)
            else:
                pos = whole(a + s * (1 + min(0.35 * (m - 1), 1.0)))
        # §4: the page being revealed is the one coming into view beside page.index, a page the
        # drag can reach (its anchor or an open neighbour of it).
        i = self.index
        if abs(pos - i) <= EPS:
            return pos, None
        c = math.ceil(pos - EPS) if pos > i else math.floor(pos + EPS)
        c = max(a - 1, min(a + 1, c))
        if c == i:
            return pos, None
        if c == a or self.neighbour_open(a, c - a):
            return pos, c
        return pos, None

    def fraction(self, tu):
        """How far the position has come from page.index towards tu, 0...1 (§4)."""
        i = self.index_u(tu)
        if abs(tu - i) < EPS:
            return min(1.0, abs(self.position - i))
        return max(0.0, min(1.0, (self.position - i) / (tu - i)))

    def index_u(self, near):
        """page.index in the unwrapped frame of the motion (the copy nearest `near`)."""
        return self.index  # positions are normalized only when a transition completes

    def transition(self):
        if self.motion is None:
            return None
        if isinstance(self.motion, Drag):
            d = self.motion
            if d.revealed is not None:
                tu = d.revealed
            elif d.heading is not None:
                tu = self.motion_target_u
                if "takeover-progress-is-distance" in self.accept:
                    return {"from": self.index, "to": d.heading, "interactive": True,
                            "progress": min(1.0, abs(self.position - self.index))}
            else:
                tu = self.index_u(self.position)
            return {"from": self.index, "to": self.norm(tu), "progress": self.fraction(tu), "interactive": True}
        a = self.motion
        if abs(a.target - self.index) < EPS:
            span = abs(a.start - a.target)
            prog = 1.0 if span < EPS else 1.0 - abs(self.position - a.target) / span
        else:
            prog = self.fraction(a.target)
        return {"from": self.index, "to": self.norm(a.target), "progress": prog, "interactive": False}

    def state(self):
        vis = self.visible_pages()
        return {
            "page": {"index": self.index, "id": vis[self.index]["id"], "count": len(vis)},
            "position": self.position,
            "transition": self.transition(),
            "focus": self.focus,
            "values": dict(self.values),
            "errors": self.errors(),
            "completed": None if self.completed is None else {"outcome": self.completed},
        }

    def buttons(self):
        n = self.count()
        last = self.index == n - 1
        return {"back": self.index > 0 or (self.wrap and n >= 2),
                "next": not last or (self.wrap and n >= 2),
                "skip": not last, "finish": last}

    # ----- notifications -----
    def emit(self, name, payload):
        self.out.append({name: payload})

    def announce(self, to):
        self.emit("pageWillChange", {"from": self.index, "to": to})
        self.announced = to

    # ----- focus -----
    def editable(self, i=None):
        i = self.index if i is None else i
        return [f["id"] for f in self.page_fields(i) if f["kind"] == "text"]

    def resign(self):
        if self.focus is None:
            return
        f = self.focus
        self.emit("inputDismissed", {"field": f, "committed": True})
        self.revealed.add(f)
        self.focus = None
        self.emit("focusChanged", {"from": f, "to": None})

    def focus_to(self, fid):
        old = self.focus
        if old is not None:
            self.emit("inputDismissed", {"field": old, "committed": True})
            self.revealed.add(old)
        self.focus = fid
        self.emit("focusChanged", {"from": old, "to": fid})
        self.emit("inputPresented", {"field": fid, "view": "keyboard"})

    def set_text(self, fid, v):
        f = self.fields[fid]
        if "maxLength" in f and len(v) > f["maxLength"]:
            self.emit("refused", {"reason": "maxLength", "errors": {fid: "maxLength"}})
            return
        if v == self.values[fid]:
            return
        self.values[fid] = v
        self.emit("valueChanged", {"field": fid, "value": v})

    # ----- moves -----
    def request_move(self, kind, arg=None):
        """A programmatic move: kind in step/jump. Raises Ignored."""
        if isinstance(self.motion, Drag):
            raise Ignored("dragInProgress")
        n = self.count()
        base = self.heading()
        base_u = self.motion.target if isinstance(self.motion, Anim) else self.index
        if kind == "step":
            t = base + arg
            if 0 <= t < n:
                tu = base_u + arg
            elif self.wrap and n >= 2:
                tu = base_u + arg
                t = t % n
            else:
                raise Ignored("atEnd")
        else:
            t = arg
            if t == base:
                raise Ignored("samePage")
            tu = t
        if t == base:
            raise Ignored("samePage")
        forward = (kind == "step" and arg > 0) or (kind == "jump" and t > base)
        if forward and self.gate == "valid":
            over = [base] if kind == "step" else list(range(base, t))
            errs = {}
            for i in over:
                errs.update(self.page_errors(i))
            if errs:
                self.revealed.update(errs)
                self.emit("refused", {"reason": "gate", "errors": errs})
                return
        self.start_anim(tu, "move")

    def start_anim(self, tu, kind, announce=True):
        t = self.norm(tu)
        moves = abs(tu - self.index) > EPS
        if announce and moves:
            self.announce(t)
        elif announce and self.motion is not None:
            # §6.6: every retarget announces, back to page.index too; pageDidChange still names
            # the page announced and not reached (docs, Page change notifications)
            self.emit("pageWillChange", {"from": self.index, "to": t})
        if moves:
            self.resign()
        self.motion = Anim(self.position, tu, kind)
        if self.duration_us <= 0 or abs(self.position - tu) <= EPS:
            self.finish_anim()

    def finish_anim(self):
        a = self.motion
        t = self.norm(a.target)
        old = self.index
        self.motion = None
        self.index = t
        self.position = float(t)
        # A wrapping move that runs a whole loop back to the page it left has moved: the
        # engine's reading (the contract is silent), completed with from = to.
        if t != old or abs(a.target - old) > EPS:
            self.emit("pageDidChange", {"from": old, "to": t, "completed": True})
        elif self.announced is not None:
            self.emit("pageDidChange", {"from": old, "to": self.announced, "completed": False})
        self.announced = None

    def tick(self, ms):
        us = round_us(ms)
        a = self.motion
        if not isinstance(a, Anim):
            return
        a.elapsed += us
        if a.elapsed >= self.duration_us:
            self.finish_anim()
        else:
            self.position = whole(a.start + (a.target - a.start) * ease(a.elapsed / self.duration_us))

    # ----- drags -----
    def drag_begin(self):
        if isinstance(self.motion, Drag):
            raise Ignored("dragInProgress")
        if not self.swipe:
            raise Ignored("swipeDisabled")
        heading = None
        if isinstance(self.motion, Anim):
            p = self.position
            # the nearest page; a tie (exactly half-way) goes away from zero (docs, Takeover)
            anchor = math.floor(p + 0.5) if p >= 0 else -math.floor(-p + 0.5)
            n = self.count()
            if not self.wrap:
                anchor = max(0, min(n - 1, anchor))
            tgt = self.motion.target
            if anchor != tgt and abs(tgt - self.index) < EPS and not self.neighbour_open(tgt, 1 if anchor > tgt else -1):
                # §2 (the gate, an end): springing back from the band beyond a closed neighbour,
                # the nearest page is one the pager was never let reach; it anchors where it
                # springs back to, as a scroll view bounces back to its edge
                anchor = int(tgt)
            heading = self.norm(self.motion.target)
            self.motion_target_u = self.motion.target
            off = p - anchor
            d = Drag(anchor, 0.0, heading)
            if abs(off) > EPS:
                s = 1 if off > 0 else -1
                an = self.norm(anchor)
                exists = (self.wrap and n >= 2) or 0 <= an + s < n
                if exists and s > 0 and self.gated(an):
                    exists = False
                d.r0 = off if exists else off / 0.35
            self.motion = d
            self.relayout()
        else:
            self.motion = Drag(self.index, 0.0, None)

    def relayout(self):
        """Lay the drag out; a takeover keeps its heading until the finger moves (§6.6)."""
        d = self.motion
        pos, rev = self.drag_layout(d)
        self.position = pos
        d.revealed = rev
        if not d.moved and d.heading is not None and "takeover-reveals-at-touch" not in self.accept:
            d.revealed = None
            return
        if rev is None:
            return
        t = self.norm(rev)
        if t != self.announced:
            self.announce(t)  # (t is page.index only in another lap of a wrapping pager)
        if d.heading is not None and t == d.heading and "heading-dropped-on-reveal" not in self.accept:
            return  # §6.6: `to` changes only when the drag reveals a *different* page
        d.heading = None

    def drag_update(self, dx):
        if not isinstance(self.motion, Drag):
            raise Ignored("noDrag")  # docs: dragUpdate/dragEnd check noDrag only
        self.motion.dx = dx
        if dx != 0:
            self.motion.moved = True
        self.relayout()

    def drag_end(self, vx):
        if not isinstance(self.motion, Drag):
            raise Ignored("noDrag")  # docs: dragUpdate/dragEnd check noDrag only
        d = self.motion
        a = d.anchor
        pos = self.position
        r = d.r0 - d.dx / self.width
        s = 0
        if abs(vx) >= self.fling:
            # §2 amended: the nearest page in the fling's direction from the position, among
            # the page the drag began on and its neighbour that way (one page at most).
            f = -1 if vx > 0 else 1
            side = (1 if pos > a else -1) if abs(pos - a) > EPS else f
            cands = [a, a + side]
            beyond = [c for c in cands if (c - pos) * f > EPS]
            pick = min(beyond, key=lambda c: abs(c - pos)) if beyond else max(cands, key=lambda c: c * f)
            s = pick - a
        elif abs(r) >= self.snap:
            s = 1 if r > 0 else -1
        target = a
        if s != 0:
            n = self.count()
            an = self.norm(a)
            exists = (self.wrap and n >= 2) or 0 <= an + s < n
            if exists and s > 0 and self.gated(an):
                self.refuse_gate(an)
            elif exists:
                target = a + s
        t = self.norm(target)
        if abs(target - self.index) > EPS and t != self.announced:
            self.announce(t)  # a release announces only a page its drag had not
        self.start_anim(target, "spring" if t == self.index else "move", announce=False)

    def refuse_gate(self, i):
        errs = self.page_errors(i)
        self.revealed.update(errs)
        self.emit("refused", {"reason": "gate", "errors": errs})

    # ----- events -----
    def send(self, ev):
        self.out = []
        try:
            self.dispatch(ev)
        except Ignored as e:
            (k, v), = ev.items()
            self.emit("ignored", {"event": k, "reason": e.reason})
        return self.out

    def dispatch(self, ev):
        (k, v), = ev.items()
        if self.completed is not None:
            raise Ignored("completed")
        if k == "tick":
            self.tick(v)
        elif k == "settle":
            if isinstance(self.motion, Anim):
                self.finish_anim()
        elif k == "dragBegin":
            self.drag_begin()
        elif k == "dragUpdate":
            self.drag_update(v["dx"])
        elif k == "dragEnd":
            self.drag_end(v["vx"])
        elif k == "swipe":
            if isinstance(self.motion, Drag):
                raise Ignored("dragInProgress")
            if not self.swipe:
                raise Ignored("swipeDisabled")
            if v == "next":
                dx, vx = -self.width, -2 * self.fling
            elif v == "previous":
                dx, vx = self.width, 2 * self.fling
            else:
                dx, vx = v["dx"], v["vx"]
            self.drag_begin()
            self.drag_update(dx)
            self.drag_end(vx)
        elif k == "tap":
            self.tap(v)
        elif k == "key":
            self.key(KEY_ALIASES.get(v, v))
        elif k == "type":
            self.type_text(v)
        elif k == "edit":
            self.edit(v["range"], v["text"])
        else:
            raise ValueError(ev)

    def after_input(self):
        if isinstance(self.motion, Drag):
            self.relayout()

    def tap(self, t):
        if t.startswith("button:"):
            return self.button(t[7:])
        if t.startswith("indicator:"):
            return self.indicator(t[10:])
        if t == "background":
            if self.focus is None:
                raise Ignored("noFirstResponder")
            self.resign()
            return self.after_input()
        if self.motion is not None:
            raise Ignored("transitionInProgress")
        if t not in self.fields:
            raise Ignored("unknownField")
        vis = self.visible_pages()
        if self.field_page[t] != vis[self.index]["id"]:
            raise Ignored("otherPage")  # docs: tier 4 checks otherPage before hidden
        f = self.fields[t]
        if f["kind"] == "toggle":
            self.resign()
            self.values[t] = not self.values[t]
            self.emit("valueChanged", {"field": t, "value": self.values[t]})
            self.revealed.add(t)
        elif self.focus != t:
            self.focus_to(t)
        self.after_input()

    def button(self, b):
        if isinstance(self.motion, Drag) and b not in ("cancel", "finish"):
            raise Ignored("dragInProgress")
        if b == "cancel":
            # docs, Completion: cancel stops any transition (a drag too) where it started from
            if self.motion is not None:
                self.motion = None
                self.position = float(self.index)
                if self.announced is not None:
                    self.emit("pageDidChange", {"from": self.index, "to": self.announced, "completed": False})
                self.announced = None
            self.resign()
            self.completed = "cancelled"
            self.emit("completed", {"outcome": "cancelled"})
            return
        if b == "finish":
            if self.motion is not None:  # a drag too: finish is no move (docs: Completion)
                raise Ignored("transitionInProgress")
            if not self.buttons()["finish"]:
                raise Ignored("disabled")
            self.resign()  # docs, Completion: finish commits (resigns) first
            for i in range(self.count()):
                errs = self.page_errors(i)
                if errs:
                    self.revealed.update(errs)
                    self.emit("refused", {"reason": "finish", "errors": errs})
                    if i != self.index:
                        self.start_anim(i, "move")
                    return
            self.resign()
            self.completed = "finished"
            self.emit("completed", {"outcome": "finished"})
            return
        if not self.buttons()[b]:
            raise Ignored("disabled")
        if b == "next":
            self.request_move("step", 1)
        elif b == "back":
            self.request_move("step", -1)
        elif b == "skip":
            self.request_move("jump", self.count() - 1)

    def indicator(self, what):
        if isinstance(self.motion, Drag):
            raise Ignored("dragInProgress")
        n = self.count()
        if self.ind_style == "none" or (self.hides_single and n == 1):
            raise Ignored("indicatorHidden")
        if what == "left":
            self.request_move("step", -1)
        elif what == "right":
            self.request_move("step", 1)
        else:
            i = int(what)
            if i >= n:
                raise Ignored("noSuchPage")
            self.request_move("jump", i)

    def key(self, k):
        f = self.focus
        if k in ("Tab", "shift+Tab"):
            if self.motion is not None:
                raise Ignored("transitionInProgress")
            chain = self.editable()
            if not chain:
                raise Ignored("noEditableField")
            if f is None:
                self.focus_to(chain[0] if k == "Tab" else chain[-1])
            else:
                i = chain.index(f) + (1 if k == "Tab" else -1)
                if 0 <= i < len(chain):
                    self.focus_to(chain[i])
                else:
                    self.resign()
            return self.after_input()
        if k in ("Return", "Escape", "BackSpace"):
            if f is None:
                raise Ignored("noFirstResponder")
            if k == "BackSpace":
                v = self.values[f]
                if not v:
                    raise Ignored("emptyText")
                self.set_text(f, v[:-1])
            elif k == "Escape":
                self.resign()
            else:
                self.return_key(f)
            return self.after_input()
        if f is not None:
            raise Ignored("firstResponderActive")
        if k in ("Up", "Down"):
            raise Ignored("noAction")
        if isinstance(self.motion, Drag):
            raise Ignored("dragInProgress")
        n = self.count()
        if k in ("Left", "Page_Up"):
            self.request_move("step", -1)
        elif k in ("Right", "Page_Down"):
            self.request_move("step", 1)
        elif k == "Home":
            self.request_move("jump", 0)
        elif k == "End":
            self.request_move("jump", n - 1)
        else:
            raise ValueError(k)

    def return_key(self, f):
        rk = self.fields[f].get("returnKey", "default")
        chain = self.editable()
        i = chain.index(f)
        if rk == "done":
            self.resign()
        elif rk == "next":
            if len(chain) > 1:
                self.focus_to(chain[(i + 1) % len(chain)])
            else:
                self.resign()
        else:
            if i + 1 < len(chain):
                self.focus_to(chain[i + 1])
            else:
                self.resign()

    def type_text(self, s):
        f = self.focus
        if f is None:
            raise Ignored("noFirstResponder")
        if s == "":
            raise Ignored("emptyText")
        self.set_text(f, (self.values[f] or "") + s)
        self.after_input()

    def edit(self, rng, s):
        f = self.focus
        if f is None:
            raise Ignored("noFirstResponder")
        v = self.values[f] or ""
        a, b = rng
        if a == b and s == "":  # an empty range replaced by nothing (docs, Text)
            raise Ignored("emptyText")  # docs: tier 4 checks emptyText before outOfRange
        if not (0 <= a <= b <= len(v)):
            raise Ignored("outOfRange")
        self.set_text(f, v[:a] + s + v[b:])
        self.after_input()
