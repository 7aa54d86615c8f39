#!/usr/bin/env python3
"""WCAG contrast of the walkthrough's text, measured on real screenshots (issue 20, item 4).

usage: contrast.py QUIRE_BINARY OUTPUT_FOLDER      (under Xvfb and a session bus: scripts/test-contrast)

For each style (light, dark) it starts `quire run --style STYLE` in a fresh home, moves to the
"About you" page with the keyboard (Right), presses Next there (Alt+Right), which is refused and
reveals the name's error ("Required", red text under the field), then Skip on the welcome page
refused for the same error out of sight, which shows the refusal notice's banner. It takes
screenshots of the window as X has it on screen (ImageMagick's `import`) and measures, in each:

- the error text: the red pixels (red well above green and blue) are its ink; the colour the
  background has around them (the most common colour of the box around the ink, widened) is its
  background; the ink's colour is the one of those pixels that stands out most from that
  background (a glyph's stem is drawn in the text's own colour, its edges blend);
- the body text: the page's title and labels, the ink standing out most from the window's
  background (the most common colour of the page);
- the notice's sentence, the same way within the banner (its background is the banner's).

Each must reach 4.5:1 (WCAG 2 AA for normal text), or the script fails naming the measure, the
colours and the ratio. The screenshots stay in OUTPUT_FOLDER to look at. No PIL: ImageMagick
writes PPM, read here.
"""
import os
import subprocess
import sys
import tempfile
import time

AA = 4.5


def luminance(rgb):
    def channel(c):
        c = c / 255.0
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b):
    la, lb = luminance(a), luminance(b)
    hi, lo = max(la, lb), min(la, lb)
    return (hi + 0.05) / (lo + 0.05)


def hexcolor(rgb):
    return "#%02x%02x%02x" % tuple(rgb)


class Image:
    """An RGB picture read from a binary PPM (P6)."""

    def __init__(self, data):
        fields = []
        at = 0
        while len(fields) < 4:
            while data[at:at + 1].isspace():
                at += 1
            if data[at:at + 1] == b"#":
                at = data.index(b"\n", at)
                continue
            end = at
            while not data[end:end + 1].isspace():
                end += 1
            fields.append(data[at:end])
            at = end
        if fields[0] != b"P6" or int(fields[3]) != 255:
            raise ValueError("not an 8-bit P6 PPM")
        self.width, self.height = int(fields[1]), int(fields[2])
        self.pixels = data[at + 1:at + 1 + self.width * self.height * 3]

    def at(self, x, y):
        i = (y * self.width + x) * 3
        return self.pixels[i], self.pixels[i + 1], self.pixels[i + 2]

    def box(self, x0, y0, x1, y1):
        for y in range(max(0, y0), min(self.height, y1)):
            for x in range(max(0, x0), min(self.width, x1)):
                yield x, y, self.at(x, y)


def mode(colors):
    counts = {}
    for c in colors:
        counts[c] = counts.get(c, 0) + 1
    return max(counts.items(), key=lambda kv: kv[1])[0]


def is_red(c):
    r, g, b = c
    return r >= g + 40 and r >= b + 40


def bounds(points):
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return min(xs), min(ys), max(xs) + 1, max(ys) + 1


def ink(image, region, background, where=lambda c: True):
    """The colour in `region` that stands out most from `background`, among those `where` accepts."""
    best, best_ratio = None, 0.0
    for _x, _y, c in image.box(*region):
        if where(c):
            ratio = contrast(c, background)
            if ratio > best_ratio:
                best, best_ratio = c, ratio
    return best, best_ratio


def xdotool(env, *args):
    return subprocess.run(["xdotool", *args], env=env, capture_output=True, text=True, timeout=20).stdout.strip()


def capture(env, window, path):
    geometry = {}
    for line in xdotool(env, "getwindowgeometry", "--shell", window).splitlines():
        key, _, value = line.partition("=")
        geometry[key] = int(value) if value.isdigit() else value
    crop = "%dx%d+%d+%d" % (geometry["WIDTH"], geometry["HEIGHT"], geometry["X"], geometry["Y"])
    ppm = subprocess.run(["import", "-silent", "-window", "root", "-crop", crop, "+repage", "-depth", "8", "ppm:-"],
                         env=env, capture_output=True, timeout=20, check=True).stdout
    subprocess.run(["convert", "ppm:-", path], input=ppm, env=env, timeout=20, check=True)
    return Image(ppm)


def start(quire, style, home):
    env = dict(os.environ)
    for sub in ("config", "state", "data", "cache"):
        os.makedirs(os.path.join(home, sub), exist_ok=True)
    env.update(XDG_CONFIG_HOME=os.path.join(home, "config"), XDG_STATE_HOME=os.path.join(home, "state"),
               XDG_DATA_HOME=os.path.join(home, "data"), XDG_CACHE_HOME=os.path.join(home, "cache"),
               LANG="en_US.UTF-8", LC_ALL="en_US.UTF-8", GSK_RENDERER="cairo", GDK_DEBUG="gl-disable",
               GDK_BACKEND="x11", GSETTINGS_BACKEND="memory", GTK_A11Y="none")
    process = subprocess.Popen([quire, "run", "--locale", "en", "--style", style], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 20
    window = ""
    while time.time() < deadline and not window:
        if process.poll() is not None:
            raise SystemExit("quire run --style %s exited with %s: %s" % (style, process.returncode,
                                                                           process.stderr.read().decode()[-2000:]))
        window = xdotool(env, "search", "--onlyvisible", "--pid", str(process.pid)).split("\n")[0]
        time.sleep(0.2)
    if not window:
        process.kill()
        raise SystemExit("quire run --style %s showed no window within 20 s" % style)
    time.sleep(1.0)
    return process, env, window


def key(env, window, *names):
    for name in names:
        xdotool(env, "key", "--window", window, name)
        time.sleep(0.25)


def measure(style, image, notice_image, failures, report):
    # The page background: the most common colour of the window's middle band.
    middle = (0, image.height // 4, image.width, 3 * image.height // 4)
    page_bg = mode(c for _x, _y, c in image.box(*middle))
    # The error text: its red ink and the background around it.
    reds = [(x, y) for x, y, c in image.box(0, 0, image.width, image.height) if is_red(c)]
    if len(reds) < 20:
        failures.append("%s: no red error text found in the screenshot (%d red pixels)" % (style, len(reds)))
        return
    x0, y0, x1, y1 = bounds(reds)
    around = mode(c for _x, _y, c in image.box(x0 - 8, y0 - 8, x1 + 8, y1 + 8) if not is_red(c))
    error_ink, error_ratio = ink(image, (x0, y0, x1, y1), around, is_red)
    # The body text: the ink of the page above the error (title, labels).
    body_ink, body_ratio = ink(image, (0, 0, image.width, y0 - 2), page_bg, lambda c: not is_red(c))
    measures = [("error text", error_ink, around, error_ratio), ("body text", body_ink, page_bg, body_ratio)]
    # The refusal notice's banner: the band under the header bar whose colour is not the page's.
    if notice_image is not None:
        band = None
        rows = [y for y in range(notice_image.height // 2)
                if mode(notice_image.at(x, y) for x in range(0, notice_image.width, 4)) not in (page_bg,)]
        # The banner: the longest run of rows (below the header bar) in one colour unlike the page's.
        runs, start_row, previous, colour = [], None, None, None
        for y in rows:
            row_colour = mode(notice_image.at(x, y) for x in range(0, notice_image.width, 4))
            if start_row is None or y != previous + 1 or row_colour != colour:
                if start_row is not None:
                    runs.append((previous + 1 - start_row, start_row, previous + 1, colour))
                start_row, colour = y, row_colour
            previous = y
        if start_row is not None:
            runs.append((previous + 1 - start_row, start_row, previous + 1, colour))
        candidates = [r for r in runs if r[1] > 20 and r[0] >= 16]
        if candidates:
            band = candidates[0]
        if band is None:
            failures.append("%s: the refusal notice's banner was not found" % style)
        else:
            _h, top, bottom, banner_bg = band
            # Its sentence: the left two thirds (the button is at the end).
            text_ink, text_ratio = ink(notice_image, (0, top, 2 * notice_image.width // 3, bottom), banner_bg)
            measures.append(("notice text", text_ink, banner_bg, text_ratio))
    for what, fg, bg, ratio in measures:
        line = "%s %s: %s on %s, %.2f:1" % (style, what, hexcolor(fg), hexcolor(bg), ratio)
        report.append(line)
        if ratio < AA:
            failures.append(line + " (below %.1f:1)" % AA)


def main():
    quire, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    failures, report = [], []
    for style in ("light", "dark"):
        with tempfile.TemporaryDirectory() as home:
            process, env, window = start(quire, style, home)
            try:
                key(env, window, "Right")
                time.sleep(0.8)
                key(env, window, "alt+Right")
                time.sleep(0.8)
                image = capture(env, window, os.path.join(out, "error-%s.png" % style))
                key(env, window, "Left")
                time.sleep(0.8)
                key(env, window, "alt+s")
                time.sleep(0.8)
                notice = capture(env, window, os.path.join(out, "notice-%s.png" % style))
                measure(style, image, notice, failures, report)
            finally:
                process.kill()
                process.wait()
    for line in report:
        print(line)
    if failures:
        for line in failures:
            print("FAIL " + line)
        return 1
    print("contrast: every measure at least %.1f:1 in light and dark" % AA)
    return 0


if __name__ == "__main__":
    sys.exit(main())
