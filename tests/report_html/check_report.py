#!/usr/bin/env python3
"""Asserts what the browser drew for `hwcomm report` (scripts/ci-browser.sh).

  check_report.py dom DOM_FILE [--expect kind=N ...] [--max-ms MS]
      DOM_FILE: chromium --dump-dom of the report; the page's own script wrote
      what it drew into <pre id="hwcomm-test">. Asserts: no script error, no
      request left the page (resource timing empty, no policy violation), every
      chart and heatmap drawn with SVG paths (GPU memory charts too, and one
      line per warp of the first timeline), one topology node per vertex, and
      the expected counts when given.
  check_report.py png PNG_FILE
      The screenshot is not blank: enough non-white pixels and colours.
Standard library only (python3 is all CI needs besides chromium).
"""
import html
import json
import re
import struct
import sys
import zlib


def fail(message):
    print("check_report: FAIL: " + message)
    sys.exit(1)


def check_dom(path, expects, max_ms):
    text = open(path, encoding="utf-8", errors="replace").read()
    found = re.search(r'<pre id="hwcomm-test">(.*?)</pre>', text, re.S)
    if not found:
        fail("the page never wrote its self-check (script did not finish); DOM has %d bytes" % len(text))
    result = json.loads(html.unescape(found.group(1)))
    print("check_report: " + json.dumps(result))
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
        expects, max_ms, rest = {}, 0, argv[3:]
        while rest:
            if rest[0] == "--expect":
                kind, number = rest[1].split("=")
                expects[kind] = int(number)
            elif rest[0] == "--max-ms":
                max_ms = int(rest[1])
            else:
                fail("unknown argument " + rest[0])
            rest = rest[2:]
        check_dom(argv[2], expects, max_ms)
    elif len(argv) == 3 and argv[1] == "png":
        check_png(argv[2])
    else:
        print(__doc__)
        sys.exit(2)
    print("check_report: ok")


if __name__ == "__main__":
    main(sys.argv)
