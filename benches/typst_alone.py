#!/usr/bin/env python3
"""Typst alone: compiles the documents `safari build --emit-typst` wrote into
DIR = out/<game>/typst/, as safari
would typeset them, with the `typst` package from PyPI (Typst 0.15 as a Python module).

    python3 benches/typst_alone.py DIR [--jobs N] [--no-previews] [--compare OUT/GAME] [-v]

Each step of DIR/documents.json is compiled to its PDF (untagged, as safari writes them) and,
where safari makes previews, to PNG pages at the same resolution; the deck's card designs are
compiled first, as safari does, and read by the deck as a PDF. Only the fonts in DIR/fonts are
given (no system fonts, not Typst's embedded ones), as safari typesets with its bundled faces.
With --jobs N the documents are compiled in N processes (the package holds Python's lock while
Typst works, so threads would take turns), as safari typesets its documents in parallel. With --compare, the PDFs and PNGs
are held to the files `safari build` wrote: PDFs equal but for their identifier (/ID); PNGs equal pixel for pixel (safari writes RGB over white, Typst
RGBA). Install: `pip install typst==0.15.2` (it bundles Typst 0.15.1, as Cargo.lock has).
"""

import argparse
import json
import os
import re
import struct
import sys
import time
import zlib

import typst


def compile_step(step, root_dir, fonts, timings, previews_too=True):
    started = time.perf_counter()
    project = os.path.join(root_dir, step["root"])
    compiler = typst.Compiler(
        input=os.path.join(project, step["main"]),
        root=project,
        font_paths=fonts,
        ignore_system_fonts=True,
    )
    pdf = os.path.join(root_dir, step["pdf"])
    os.makedirs(os.path.dirname(pdf), exist_ok=True)
    compiler.compile(output=pdf, format="pdf", pdf_tags=False, timestamp=0)
    compiled = time.perf_counter()
    previews = step.get("previews") if previews_too else None
    if previews:
        pages = compiler.compile(format="png", ppi=previews["ppi"])
        if isinstance(pages, bytes):
            pages = [pages]
        wanted = previews["pages"] or range(1, len(pages) + 1)
        os.makedirs(os.path.dirname(os.path.join(root_dir, previews["prefix"])), exist_ok=True)
        for number in wanted:
            if number <= len(pages):
                with open(os.path.join(root_dir, f"{previews['prefix']}-{number}.png"), "wb") as f:
                    f.write(pages[number - 1])
    timings.append((step["pdf"], compiled - started, time.perf_counter() - compiled))


def compile_chain(root_dir, fonts_dir, chain, previews_too=True):
    """Compiles steps in order (a step after the one whose PDF it reads); their timings."""
    fonts = typst.Fonts(
        include_system_fonts=False, include_embedded_fonts=False, font_paths=[fonts_dir]
    )
    timings = []
    for step in chain:
        compile_step(step, root_dir, fonts, timings, previews_too)
    return timings


def run(root_dir, jobs, verbose, previews_too=True):
    with open(os.path.join(root_dir, "documents.json")) as f:
        documents = json.load(f)
    fonts_dir = os.path.join(root_dir, documents["fonts"])
    # Chains: a step joins the chain of the step it needs.
    chains, chain_of = [], {}
    for step in documents["steps"]:
        chain = next((chain_of[n] for n in step["needs"]), None)
        if chain is None:
            chain = []
            chains.append(chain)
        chain.append(step)
        chain_of[step["root"]] = chain
    timings = []
    if jobs <= 1:
        timings = compile_chain(
            root_dir, fonts_dir, [s for chain in chains for s in chain], previews_too
        )
    else:
        # The package holds Python's lock while Typst works, so threads would take turns:
        # documents are spread over processes instead, each with its own fonts, longest
        # chains first.
        import multiprocessing

        groups = [[] for _ in range(jobs)]
        for chain in sorted(chains, key=len, reverse=True):
            min(groups, key=len).extend(chain)
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            results = [
                pool.apply_async(compile_chain, (root_dir, fonts_dir, group, previews_too))
                for group in groups if group
            ]
            for result in results:
                timings.extend(result.get())
    if verbose:
        for pdf, typeset, previews in timings:
            print(f"{pdf}: compile + PDF {typeset * 1e3:.1f} ms, previews {previews * 1e3:.1f} ms",
                  file=sys.stderr)


def png_pixels(path):
    """RGB rows of an 8-bit, non-interlaced RGB or RGBA PNG, flattened onto white."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, path
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        line = raw[y * (stride + 1):(y + 1) * (stride + 1)]
        kind, row = line[0], bytearray(line[1:])
        for i in range(stride):
            a = row[i - channels] if i >= channels else 0
            b = previous[i]
            c = previous[i - channels] if i >= channels else 0
            if kind == 1:
                row[i] = (row[i] + a) & 255
            elif kind == 2:
                row[i] = (row[i] + b) & 255
            elif kind == 3:
                row[i] = (row[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        previous = row
        if channels == 4:
            flat = bytearray()
            for i in range(0, stride, 4):
                # Premultiplied over white, as safari flattens: c * alpha + (255 - alpha),
                # with Typst's PNG straight (unpremultiplied) colour.
                alpha = row[i + 3]
                for c in row[i:i + 3]:
                    flat.append(min(255, (c * alpha + 127) // 255 + 255 - alpha))
            row = flat
        rows.append(bytes(row))
    return width, height, rows


def normalise_pdf(data):
    """A PDF without its identifier (the trailer's /ID and the XMP document id): safari derives
    it from the game and the file's name, Typst alone from the main file's path."""
    data = re.sub(rb"/ID\[\([^)]*\)\([^)]*\)\]", b"/ID[]", data)
    return re.sub(rb"<xmpMM:(Instance|Document)ID>[^<]*<", b"<xmpMM:ID><", data)


def compare(root_dir, safari_out):
    with open(os.path.join(root_dir, "documents.json")) as f:
        steps = json.load(f)["steps"]
    failures = 0
    for step in steps:
        if not step["pdf"].startswith("out/"):
            continue
        name = step["pdf"][len("out/"):]
        ours = open(os.path.join(root_dir, step["pdf"]), "rb").read()
        theirs = open(os.path.join(safari_out, name), "rb").read()
        same = ours == theirs or normalise_pdf(ours) == normalise_pdf(theirs)
        print(f"{name}: {len(ours)} and {len(theirs)} bytes, "
              + ("the same" if ours == theirs else "the same but for the identifier" if same
                 else "DIFFERENT"))
        failures += not same
        previews = step.get("previews")
        if not previews:
            continue
        prefix = os.path.basename(previews["prefix"])
        for file in sorted(os.listdir(os.path.join(safari_out, "preview"))):
            match = re.fullmatch(re.escape(prefix) + r"-(\d+)\.png", file)
            if not match:
                continue
            a = png_pixels(os.path.join(root_dir, "out/preview", file))
            b = png_pixels(os.path.join(safari_out, "preview", file))
            if a[:2] != b[:2]:
                print(f"  preview/{file}: {a[:2]} and {b[:2]} pixels: DIFFERENT")
                failures += 1
                continue
            differing = sum(ra != rb for ra, rb in zip(a[2], b[2]))
            worst = max((max(abs(x - y) for x, y in zip(ra, rb)) for ra, rb in zip(a[2], b[2])
                         if ra != rb), default=0)
            print(f"  preview/{file}: {a[0]}x{a[1]}, "
                  + ("the same pixels" if differing == 0 else
                     f"{differing} rows differ, by at most {worst} in a channel"))
            failures += differing != 0 and worst > 1
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--compare", metavar="SAFARI_OUT")
    parser.add_argument("--no-previews", action="store_true",
                        help="PDFs only: Typst's compile and PDF export without the PNG pages")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    if args.compare and args.no_previews:
        parser.error("--compare needs the previews")
    run(args.dir, args.jobs, args.verbose, not args.no_previews)
    if args.compare:
        sys.exit(1 if compare(args.dir, args.compare) else 0)


if __name__ == "__main__":
    main()
