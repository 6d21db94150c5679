#!/usr/bin/env python3
"""Shrinks a failing input line by line (delta debugging) while the command
still fails the same way (same exit status or signal), e.g.

  fuzz/minimize.py crash.xml small.xml -- ./load @@
"""
import subprocess, sys

def status(cmd, path, data, timeout):
    open(path, "wb").write(data)
    try:
        return subprocess.run([c.replace("@@", path) for c in cmd], capture_output=True, timeout=timeout).returncode
    except subprocess.TimeoutExpired:
        return "timeout"

def main():
    src, dst, cmd = sys.argv[1], sys.argv[2], sys.argv[4:]
    data = open(src, "rb").read()
    want = status(cmd, dst, data, 20)
    lines = data.splitlines(keepends=True)
    chunk = len(lines) // 2
    while chunk >= 1:
        i, changed = 0, False
        while i < len(lines):
            trial = lines[:i] + lines[i + chunk:]
            if trial and status(cmd, dst, b"".join(trial), 20) == want:
                lines, changed = trial, True
            else:
                i += chunk
        if not changed:
            chunk //= 2
    open(dst, "wb").write(b"".join(lines))
    print(f"{src}: status {want}, {len(data)} -> {len(b''.join(lines))} bytes, {len(lines)} lines")

if __name__ == "__main__":
    main()
