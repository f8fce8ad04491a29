"""Hostile sizes: sources far under the size limits whose shape, not size, makes work.

    python -m pipeline.bench.hostile --case references --size 20000 --out DIR

Each case writes a sources folder (manifest included) of one shape at size n; the benchmark
builds it at n and 2n and compares the times (pipeline/bench/__main__.py):

  repeated-word  one line of n copies of one word ("woord woord …"): the doubled-word repair
  references     one paragraph citing n different articles ("Zie artikel 12B."): the references stage
  notes          one line with n inline notes ("… (Noot: noot 12.) …"): the notes reader
  distinct-words one line of n bytes of words that never repeat, in an article both editions have:
                 the edition diff (the redline of one huge paragraph)
  short-lines    n short lines under one article, each its own paragraph: every stage, per line

The same case and size give the same bytes.
"""
import argparse
import sys
from pathlib import Path

from ..reading import manifest

HEAD = "Artikel 1\n\nDe titel van het artikel\n\n"


def _word(k):
    """The k-th of words that never repeat: letters only ("ba", "bb", …), so no repair touches them."""
    out = ""
    k += 26
    while k:
        k, r = divmod(k, 26)
        out = chr(ord("a") + r) + out
    return out


def repeated_word(n):
    return {"2017": HEAD + " ".join(["woord"] * n) + "\n"}


def references(n):
    return {"2017": HEAD + " ".join(f"Zie artikel {k + 2}B." for k in range(n)) + "\n"}


def notes(n):
    return {"2017": HEAD + " ".join(f"Tekst {_word(k)} (Noot: noot {k + 1}.)" for k in range(n)) + "\n"}


def distinct_words(n):
    words, size, k = [], 0, 0
    while size < n:
        words.append(_word(k))
        size += len(words[-1]) + 1
        k += 1
    return {"2007": HEAD + "Een korte tekst van het artikel.\n",
            "2017": HEAD + "Een korte tekst " + " ".join(words) + ".\n"}


def short_lines(n):
    return {"2017": HEAD + "".join(f"Regel {_word(k)} van de tekst.\n" for k in range(n))}


CASES = {"repeated-word": repeated_word, "references": references, "notes": notes,
         "distinct-words": distinct_words, "short-lines": short_lines}


def write(case, n, folder):
    """The sources of `case` at size `n` in `folder` (created): one wiki page per edition."""
    folder = Path(folder)
    folder.mkdir(parents=True)
    entries = []
    for edition, text in CASES[case](n).items():
        name = f"{case}-{edition}.txt"
        (folder / name).write_text(text, encoding="utf-8")
        entries.append(f'[[source]]\nfile = "{name}"\nedition = "{edition}"\n')
    (folder / manifest.MANIFEST).write_text("\n".join(entries), encoding="utf-8")
    return folder


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m pipeline.bench.hostile", description=__doc__.split("\n")[0])
    parser.add_argument("--case", choices=sorted(CASES), required=True)
    parser.add_argument("--size", type=int, required=True)
    parser.add_argument("--out", required=True, help="the sources folder to write (must not exist)")
    args = parser.parse_args(argv)
    write(args.case, args.size, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
