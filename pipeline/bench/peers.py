"""Peers (`make bench-peers`): pandoc and Sphinx on the same book, for comparison.

    python -m pipeline.bench.peers --out bench

Installs its tools when run, and only then: pandoc from Debian (apt-get, as root)
and Sphinx with the MyST Markdown parser into the project's virtual environment.
Generates the benchmark's 93-article book in two editions, builds it with lawbook, and times,
for each edition's Markdown edition (<edition>/lawbook.md):
  pandoc   Markdown -> one standalone HTML page
  sphinx   a one-page Sphinx project (MyST) -> HTML
beside lawbook's own Markdown, HTML and search-index stages on the same book.
Writes bench/bench-peers.json and prints a table.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def ensure_tools() -> tuple[str, str]:
    """pandoc and sphinx-build, installed when missing; returns their paths."""
    if shutil.which("pandoc") is None:
        if os.geteuid() != 0:
            raise SystemExit("bench-peers: pandoc is missing and installing it needs root (apt-get install pandoc)")
        subprocess.run(["apt-get", "update", "-qq"], check=True, stdout=subprocess.DEVNULL)
        subprocess.run(["apt-get", "install", "-y", "-q", "pandoc"], check=True, stdout=subprocess.DEVNULL)
    sphinx = Path(sys.executable).with_name("sphinx-build")
    if not sphinx.exists():
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "sphinx", "myst-parser"], check=True)
    pandoc = shutil.which("pandoc")
    if pandoc is None:  # (there, or installed above)
        raise SystemExit("bench-peers: pandoc is not on the PATH after installing it")
    return pandoc, str(sphinx)


def timed(cmd: Sequence[str], **kw: Any) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kw)
    return time.perf_counter() - start


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pipeline.bench.peers")
    parser.add_argument("--out", default="bench")
    parser.add_argument("--articles", type=int, default=93, help="size of the generated book to compare on")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    pandoc, sphinx = ensure_tools()
    from ..publish import run as build
    from . import generate

    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="lawbook-peers-") as tmp:
        # The same book for everyone: generated, built by lawbook (its Markdown edition is the peers' input).
        src, built = Path(tmp) / "src", Path(tmp) / "build"
        generate.generate(src, articles=args.articles, editions=2)
        ctx = build.build(src, built, {"force": True, "cache_dir": str(Path(tmp) / "cache")})
        t = ctx.timings
        ours = {"write_markdown": t.get("write_markdown"), "write_html": t.get("write_html"),
                # pagefind runs beside the PDF and the diff: its start plus the wait for it at the end.
                "search_index": (t.get("start_search_index") or 0) + (t.get("finish_search_index") or 0)}
        for folder in sorted(p.parent for p in built.glob("*/lawbook.md")):
            md = folder / "lawbook.md"
            project = Path(tmp) / f"sphinx-{folder.name}"
            project.mkdir()
            shutil.copy(md, project / "index.md")
            (project / "conf.py").write_text('extensions = ["myst_parser"]\nproject = "Spelregels"\n')
            rows.append({
                "edition": folder.name,
                "markdown_bytes": md.stat().st_size,
                "pandoc_s": timed([pandoc, str(md), "-s", "--metadata", "title=Spelregels",
                                   "-o", str(Path(tmp) / f"{folder.name}.html")]),
                "sphinx_s": timed([sphinx, "-q", "-b", "html", str(project), str(project / "_build")]),
            })
    book = f"{args.articles} articles, 2 editions"
    (out / "bench-peers.json").write_text(json.dumps({"book": book, "peers": rows, "lawbook": ours}, indent=1) + "\n",
                                          encoding="utf-8")
    print(f"book: {book}")
    print(f"{'edition':<8} {'Markdown KiB':>12} {'pandoc s':>9} {'Sphinx s':>9}")
    for r in rows:
        print(f"{r['edition']:<8} {r['markdown_bytes'] // 1024:>12} {r['pandoc_s']:>9.2f} {r['sphinx_s']:>9.2f}")
    print("lawbook, both editions: " + ", ".join(f"{k} {v:.2f} s" for k, v in ours.items() if v is not None))
    return 0


if __name__ == "__main__":
    sys.exit(main())
