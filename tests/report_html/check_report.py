#!/usr/bin/env python3
"""Asserts what the browser drew for `hwcomm report` (scripts/ci-browser.sh).

  check_report.py dom DOM_FILE [--expect kind=N ...] [--max-ms MS]
      DOM_FILE: chromium --dump-dom of the report; the page's own script wrote
      what it drew into <pre id="hwcomm-test">. Asserts: no script error, no
      request left the page (resource timing empty, no policy violation), every
      chart and heatmap drawn with SVG paths (GPU memory charts too, and one
      line per warp of the first timeline), one topology node per vertex, and
      the expected counts when given.
      With --hostile (a page of make_hostile.py's names, opened with #show-tips):
      every chart's tooltips were shown, none made an element or ran a script,
      and the names appear in them as text.
  check_report.py csp REPORT_HTML
      The page's content-security policy names each inline script by its
      SHA-256 and allows no other (no 'unsafe-inline' for scripts).
  check_report.py png PNG_FILE
      The screenshot is not blank: enough non-white pixels and colours.
Standard library only (python3 is all CI needs besides chromium).
"""
import base64
import hashlib
import html
import json
import re
import struct
import sys
import zlib


def fail(message):
    print("check_report: FAIL: " + message)
    sys.exit(1)


def check_hostile(result):
    tips = result.get("tips") or {}
    print("check_report: tooltips shown per chart kind: %s" % tips.get("shown"))
    if result["injected"] or result["injected_script_ran"]:
        fail("a name became markup: %d injected elements, script ran: %s"
             % (result["injected"], result["injected_script_ran"]))
    for kind in ("bandwidth", "small", "heatmap"):
        if not tips.get("shown", {}).get(kind):
            fail("no %s tooltip was shown" % kind)
    if not any("<img src=x" in t for t in tips.get("texts", [])):
        fail("no tooltip shows a hostile name as text: %s" % tips.get("texts", [])[:3])


def check_csp(path):
    text = open(path, encoding="utf-8").read()
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', text)
    if not policy:
        fail("no content-security policy")
    scripts = re.search(r"script-src([^;]*)", policy.group(1))
    if not scripts or "unsafe-inline" in scripts.group(1) or "unsafe-eval" in scripts.group(1):
        fail("script-src allows more than hashed scripts: %s" % policy.group(1)[:200])
    allowed = set(re.findall(r"'sha256-([A-Za-z0-9+/=]+)'", scripts.group(1)))
    bodies = re.findall(r"<script>(.*?)</script>", text, re.S)
    for body in bodies:
        digest = base64.b64encode(hashlib.sha256(body.encode("utf-8")).digest()).decode()
        if digest not in allowed:
            fail("an inline script (%d bytes, %r...) is not in the policy" % (len(body), body[:40]))
    if len(allowed) != len(bodies):
        fail("%d hashes for %d inline scripts" % (len(allowed), len(bodies)))
    print("check_report: policy names all %d inline scripts by hash" % len(bodies))


def check_dom(path, expects, max_ms, hostile=False):
    text = open(path, encoding="utf-8", errors="replace").read()
    found = re.search(r'<pre id="hwcomm-test">(.*?)</pre>', text, re.S)
    if not found:
        fail("the page never wrote its self-check (script did not finish); DOM has %d bytes" % len(text))
    result = json.loads(html.unescape(found.group(1)))
    shown = dict(result, tips={"shown": (result.get("tips") or {}).get("shown")}) if result.get("tips") else result
    print("check_report: " + json.dumps(shown))
    if result["errors"]:
        fail("script errors: %s" % result["errors"])
    if result["blocked"] or result["resources"]:
        fail("the page tried to load: %s" % (result["blocked"] + result["resources"]))
    for kind in ("bandwidth", "small", "heatmap"):
        # A page of GPU memory records alone has none: say so with --expect bandwidth=0.
        if result["expected"][kind] == 0 and expects.get(kind) != 0:
            fail("no %s chart in the model" % kind)
    # Every kind of chart (and the first timeline's warp lines) as the model says.
    for kind, expected in result["expected"].items():
        if kind != "vertices" and result["drawn"].get(kind) != expected:
            fail("%s of %d %s drawn" % (result["drawn"].get(kind), expected, kind))
    if result.get("analysis_cells", 1) == 0:
        fail("the analysis section has no table rows")
    if result["drawn"]["nodes"] != result["expected"]["vertices"] or not result["drawn"]["nodes"]:
        fail("topology nodes %s, vertices %s" % (result["drawn"]["nodes"], result["expected"]["vertices"]))
    for kind, number in expects.items():
        actual = result["drawn"]["nodes"][0] if kind == "nodes" else result["drawn"][kind]
        if actual != number:
            fail("%s: %s drawn, %s expected" % (kind, actual, number))
    if max_ms and result["all_drawn_ms"] > max_ms:
        fail("drawing took %d ms (limit %d ms)" % (result["all_drawn_ms"], max_ms))
    if result.get("injected") or result.get("injected_script_ran"):
        fail("an element or script came from the data")
    if hostile:
        check_hostile(result)


def png_pixels(path):
    """Decodes an 8-bit RGB/RGBA, non-interlaced PNG (what chromium writes)."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail(path + " is not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        fail("unsupported PNG format (depth %d, colour type %d)" % (depth, colour))
    channels = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(idat), width * channels
    rows, previous, i = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up, corner = previous[x], previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + left) & 255
            elif kind == 2:
                line[x] = (line[x] + up) & 255
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[x] = (line[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append(bytes(line))
        previous = line
    return width, height, channels, rows


def check_png(path):
    width, height, channels, rows = png_pixels(path)
    colours, inked, sampled = set(), 0, 0
    for row in rows[::4]:
        for x in range(0, width * channels, channels * 4):
            pixel = row[x:x + 3]
            colours.add(pixel)
            sampled += 1
            inked += min(pixel) < 235
    share = inked / max(sampled, 1)
    print("check_report: %s %dx%d, %.1f%% non-white, %d colours" % (path, width, height, 100 * share, len(colours)))
    if share < 0.03 or len(colours) < 24:
        fail("screenshot looks blank")


def main(argv):
    if len(argv) >= 3 and argv[1] == "dom":
        expects, max_ms, hostile, rest = {}, 0, False, argv[3:]
        while rest:
            if rest[0] == "--hostile":
                hostile, rest = True, rest[1:]
                continue
            if rest[0] == "--expect":
                kind, number = rest[1].split("=")
                expects[kind] = int(number)
            elif rest[0] == "--max-ms":
                max_ms = int(rest[1])
            else:
                fail("unknown argument " + rest[0])
            rest = rest[2:]
        check_dom(argv[2], expects, max_ms, hostile)
    elif len(argv) == 3 and argv[1] == "csp":
        check_csp(argv[2])
    elif len(argv) == 3 and argv[1] == "png":
        check_png(argv[2])
    else:
        print(__doc__)
        sys.exit(2)
    print("check_report: ok")


if __name__ == "__main__":
    main(sys.argv)
