#!/usr/bin/env python3
"""How long `safari watch` takes to bring every output up to date after a one-card edit.

Copies a game folder to a temporary folder, starts `safari watch` on it, waits for the first
build, then edits one card's text N times (a new text each time, a few seconds apart: the
`--key` string of the `--card`th entry that has one in `--file`, by default a flavour text of
Safari Zone RNW's `deck.toml`)
and records, through inotify, when each file of the output folder is replaced (watch writes
each file to a temporary name and renames it over the old one). Prints, per edit, when the
PDFs and the ruleset were current and when the last preview and export file was, counted from
the save; then the medians.

    benches/watch_latency.py [--safari target/release/safari] [--game content/safari-zone]
                             [--edits 8] [--card 1] [--file deck.toml] [--key flavor]

A game of components: --game content/diceafari --file maps.toml --key text

Linux only (inotify through ctypes; nothing to install).
"""

import argparse
import ctypes
import ctypes.util
import os
import re
import select
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time

IN_MOVED_TO = 0x00000080
IN_CLOSE_WRITE = 0x00000008
IN_CREATE = 0x00000100
IN_ISDIR = 0x40000000

libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)


class Inotify:
    def __init__(self):
        self.fd = libc.inotify_init1(os.O_NONBLOCK)
        if self.fd < 0:
            raise OSError(ctypes.get_errno(), "inotify_init1")
        self.dirs = {}

    def watch_tree(self, root):
        for folder, _, _ in os.walk(root):
            self.watch(folder)

    def watch(self, folder):
        wd = libc.inotify_add_watch(
            self.fd, folder.encode(), IN_MOVED_TO | IN_CLOSE_WRITE | IN_CREATE
        )
        if wd >= 0:
            self.dirs[wd] = folder

    def read(self, timeout):
        """Events as (monotonic time, path, mask) until nothing arrives for `timeout` s."""
        events = []
        while True:
            ready, _, _ = select.select([self.fd], [], [], timeout)
            if not ready:
                return events
            now = time.monotonic()
            data = os.read(self.fd, 65536)
            offset = 0
            while offset < len(data):
                wd, mask, _, length = struct.unpack_from("iIII", data, offset)
                name = data[offset + 16 : offset + 16 + length].rstrip(b"\0").decode()
                offset += 16 + length
                path = os.path.join(self.dirs.get(wd, "?"), name)
                if mask & IN_ISDIR and mask & IN_CREATE:
                    self.watch(path)
                events.append((now, path, mask))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--safari", default="target/release/safari")
    parser.add_argument("--game", default="content/safari-zone")
    parser.add_argument("--edits", type=int, default=8)
    parser.add_argument("--card", type=int, default=1, help="which card (from 1) to edit")
    parser.add_argument("--file", default="deck.toml", help="the file edited, in the game folder")
    parser.add_argument("--key", default="flavor", help="the key whose text is edited")
    parser.add_argument("--pause", type=float, default=3.0)
    args = parser.parse_args()

    work = tempfile.mkdtemp(prefix="watch-latency-")
    game = os.path.join(work, "game")
    out = os.path.join(work, "out")
    shutil.copytree(args.game, game)
    game_id = re.search(r'^id = "([^"]+)"', open(os.path.join(game, "game.toml")).read(), re.M)[1]
    folder = os.path.join(out, game_id)
    log = open(os.path.join(work, "watch.log"), "w+")
    child = subprocess.Popen(
        [os.path.abspath(args.safari), "--color", "never", "--verbose", "watch", game, "--out", out],
        stdout=subprocess.DEVNULL,
        stderr=log,
    )
    try:
        deadline = time.monotonic() + 300
        while "watching" not in open(log.name).read():
            if time.monotonic() > deadline or child.poll() is not None:
                sys.exit("watch did not finish its first build:\n" + open(log.name).read())
            time.sleep(0.1)
        # The first build's previews and export follow the "watching" line.
        while open(log.name).read().count("then previews") < 1:
            time.sleep(0.1)
        time.sleep(1.0)
        inotify = Inotify()
        inotify.watch_tree(folder)
        deck = os.path.join(game, args.file)
        original = open(deck).read()
        flavours = list(re.finditer(rf'^{re.escape(args.key)} = "([^"]*)"', original, re.M))
        target = flavours[args.card - 1]
        rows = []
        for edit in range(args.edits):
            text = (
                original[: target.start(1)]
                + f"Edit {edit + 1}: {target.group(1)}"
                + original[target.end(1) :]
            )
            saved = time.monotonic()
            with open(deck, "w") as f:
                f.write(text)
            events = inotify.read(args.pause)
            last = {}
            for at, path, mask in events:
                if mask & (IN_MOVED_TO | IN_CLOSE_WRITE) and "/." not in path:
                    last[os.path.relpath(path, folder)] = at - saved
            pdfs = [t for p, t in last.items() if p.endswith(".pdf") or p == "ruleset.json"]
            rest = [t for p, t in last.items() if not (p.endswith(".pdf") or p == "ruleset.json")]
            if not pdfs or not rest:
                print(f"edit {edit + 1}: incomplete ({sorted(last)})")
                continue
            row = (max(pdfs) * 1e3, max(rest) * 1e3, (max(rest) - max(pdfs)) * 1e3, len(last))
            rows.append(row)
            print(
                f"edit {edit + 1}: PDFs and ruleset {row[0]:.0f} ms, everything {row[1]:.0f} ms "
                f"after the save: {row[2]:.0f} ms after the PDFs ({row[3]} files replaced)"
            )
            for path, at in sorted(last.items(), key=lambda kv: kv[1]):
                print(f"    {at * 1e3:7.0f} ms  {path}")
        if rows:
            print(
                "median: PDFs {:.0f} ms, everything {:.0f} ms, after the PDFs {:.0f} ms "
                "(range {:.0f}-{:.0f})".format(
                    statistics.median(r[0] for r in rows),
                    statistics.median(r[1] for r in rows),
                    statistics.median(r[2] for r in rows),
                    min(r[2] for r in rows),
                    max(r[2] for r in rows),
                )
            )
        print("watch's own report:")
        for line in open(log.name):
            if "rebuilt" in line or line.startswith("then") or line.startswith("  "):
                print("    " + line.rstrip())
    finally:
        child.terminate()
        child.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
