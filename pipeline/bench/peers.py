"""Peers (`make bench-peers`): pandoc and Sphinx on the same book, for comparison.

    python -m pipeline.bench.peers --out build

Installs its tools when run, and only then: pandoc from Debian (apt-get, as root)
and Sphinx with the MyST Markdown parser into the project's virtual environment.
Times, for each edition's Markdown (build/<edition>/lawbook.md, written by `make`):
  pandoc   Markdown -> one standalone HTML page
  sphinx   a one-page Sphinx project (MyST) -> HTML
and the lawbook's own Markdown and HTML stages from build/bench.json when present.
Writes build/bench-peers.json and prints a table.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def ensure_tools():
    """pandoc and sphinx-build, installed when missing; returns their paths."""
    if shutil.which("pandoc") is None:
        if os.geteuid() != 0:
            raise SystemExit("bench-peers: pandoc is missing and installing it needs root (apt-get install pandoc)")
        subprocess.run(["apt-get", "install", "-y", "-q", "pandoc"], check=True, stdout=subprocess.DEVNULL)
    sphinx = Path(sys.executable).with_name("sphinx-build")
    if not sphinx.exists():
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "sphinx", "myst-parser"], check=True)
    return shutil.which("pandoc"), str(sphinx)


def timed(cmd, **kw):
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kw)
    return time.perf_counter() - start


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m pipeline.bench.peers")
    parser.add_argument("--out", default="build")
    args = parser.parse_args(argv)
    out = Path(args.out)
    editions = sorted(p.parent for p in out.glob("*/lawbook.md"))
    if not editions:
        raise SystemExit(f"bench-peers: no {out}/<edition>/lawbook.md; run `make` first")
    pandoc, sphinx = ensure_tools()
    rows = []
    with tempfile.TemporaryDirectory(prefix="lawbook-peers-") as tmp:
        for folder in editions:
            md = folder / "lawbook.md"
            project = Path(tmp) / folder.name
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
    ours = {}
    bench = out / "bench.json"
    if bench.exists():
        for book in json.loads(bench.read_text(encoding="utf-8"))["books"]:
            t = book["full"]["timings"]
            ours[book["label"]] = {k: t.get(k) for k in ("write_markdown", "write_html")}
            # pagefind runs beside the PDF and the diff: its start plus the wait for it at the end.
            ours[book["label"]]["search_index"] = (t.get("start_search_index") or 0) + (t.get("finish_search_index") or 0)
    (out / "bench-peers.json").write_text(json.dumps({"peers": rows, "lawbook": ours}, indent=1) + "\n",
                                          encoding="utf-8")
    print(f"{'edition':<8} {'Markdown KiB':>12} {'pandoc s':>9} {'Sphinx s':>9}")
    for r in rows:
        print(f"{r['edition']:<8} {r['markdown_bytes'] // 1024:>12} {r['pandoc_s']:>9.2f} {r['sphinx_s']:>9.2f}")
    for label, t in ours.items():
        print(f"lawbook, {label}: " + ", ".join(f"{k} {v:.2f} s" for k, v in t.items() if v is not None))
    return 0


if __name__ == "__main__":
    sys.exit(main())
