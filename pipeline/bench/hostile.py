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
  print-paragraph  a printed page whose one paragraph runs over n lines: joining the lines
  hyphen-lines   a printed paragraph of n lines, each a piece of one word ending in a hyphen: the
                 hyphen joins and their report entries (each quotes an excerpt, not the word so far)
  punctuation    one line with a run of n dots before a letter: the doubled-word repair's word keys
  flowed-digits  a flowed page whose one paragraph is n lines of a number each (a table's column):
                 the lines of the paragraph's pieces
  flowed-notes   n markers on n / 4 flowed pages, each citing again the footnote printed at the foot of
                 the first page: the footnote page of each marker
  corrections    n corrections (accept) of one article in corrections.toml: marking each in the tree
  marker-forms   one line with n of each form the fidelity check looks at and lets pass (a citation
                 glued to its number, a card holding, a call and a label with a sign, a word split after
                 its hyphen that the book writes both ways): the check's filters, one report entry

The same case and size give the same bytes.
"""
import argparse
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..reading import manifest

HEAD = "Artikel 1\n\nDe titel van het artikel\n\n"
# A printed page's top (running header, page number, heading, title) and a flowed page's.
PRINT_HEAD = "Spelregels\n\n44\nARTIKEL 1\nDe titel van het artikel\n"
FLOWED_HEAD = "1\nLAW 1\nTHE TITLE OF THE LAW\n"


@dataclass
class Sources:
    """One case's sources: the text of each edition, and what its manifest and folder say besides."""
    texts: dict[str, str]  # edition -> its source's text
    format: str | None = None
    language: str | None = None
    corrections: str | None = None


def _word(k: int) -> str:
    """The k-th of words that never repeat: letters only ("ba", "bb", …), so no repair touches them."""
    out = ""
    k += 26
    while k:
        k, r = divmod(k, 26)
        out = chr(ord("a") + r) + out
    return out


def repeated_word(n: int) -> dict[str, str]:
    return {"2017": HEAD + " ".join(["woord"] * n) + "\n"}


def references(n: int) -> dict[str, str]:
    return {"2017": HEAD + " ".join(f"Zie artikel {k + 2}B." for k in range(n)) + "\n"}


def notes(n: int) -> dict[str, str]:
    return {"2017": HEAD + " ".join(f"Tekst {_word(k)} (Noot: noot {k + 1}.)" for k in range(n)) + "\n"}


def distinct_words(n: int) -> dict[str, str]:
    words: list[str] = []
    size, k = 0, 0
    while size < n:
        words.append(_word(k))
        size += len(words[-1]) + 1
        k += 1
    return {"2007": HEAD + "Een korte tekst van het artikel.\n",
            "2017": HEAD + "Een korte tekst " + " ".join(words) + ".\n"}


def short_lines(n: int) -> dict[str, str]:
    return {"2017": HEAD + "".join(f"Regel {_word(k)} van de tekst.\n" for k in range(n))}


def print_paragraph(n: int) -> Sources:
    return Sources({"2017": PRINT_HEAD + "".join(f"de regel {_word(k)} van de tekst gaat verder\n"
                                                  for k in range(n)) + "en stopt hier.\n"}, format="print")


def hyphen_lines(n: int) -> Sources:
    return Sources({"2017": PRINT_HEAD + "Een woord " + "".join(f"{_word(k)}-\n" for k in range(n))
                    + "einde van de tekst.\n"}, format="print")


def punctuation(n: int) -> dict[str, str]:
    return {"2017": HEAD + "Zie " + "." * n + "x en verder.\n"}


def flowed_digits(n: int) -> Sources:
    return Sources({"2017": FLOWED_HEAD + "The scale of the made-up law runs\n"
                    + "".join(f"{k * 7}\n" for k in range(n)) + "and ends here.\n"}, format="flowed", language="en")


def flowed_notes(n: int) -> Sources:
    # Four markers a page (a page number has at most four digits: n up to 39,996)
    pages = [FLOWED_HEAD + "A. The made-up law cites its footnote1 on its first page.\n1 The footnote.\n"]
    pages += [f"{p}\n" + "".join(f"Line {k} of page {p} of the made-up law cites the footnote1 again.\n"
                                  for k in range(4)) for p in range(2, n // 4 + 2)]
    return Sources({"2017": "\f".join(pages)}, format="flowed", language="en")


def corrections(n: int) -> Sources:
    entries = "".join(f'[[correction]]\nkind = "accept"\nnode = "2017/1"\nbasis = "decision {k + 1}"\n\n'
                      for k in range(n))
    return Sources({"2017": HEAD + "De tekst van het artikel.\n"}, corrections=entries)


def marker_forms(n: int) -> dict[str, str]:
    # Forms the check looks at and lets pass (a citation, a holding in capitals, a call, a label, a word the
    # book writes both ways: one uncertain entry), so that the build succeeds.
    return {"2017": HEAD + "De tegenspeler of tegen-speler. " + " ".join(
        f"Zie artikel{k % 93 + 1} met AQ{k % 9 + 2} na 4NT* en (a)* de tegen- speler" for k in range(n)) + ".\n"}


CASES: dict[str, Callable[[int], dict[str, str] | Sources]] = {"repeated-word": repeated_word, "references": references, "notes": notes,
         "distinct-words": distinct_words, "short-lines": short_lines, "print-paragraph": print_paragraph,
         "hyphen-lines": hyphen_lines, "punctuation": punctuation, "flowed-digits": flowed_digits,
         "flowed-notes": flowed_notes, "corrections": corrections, "marker-forms": marker_forms}


def write(case: str, n: int, folder: str | os.PathLike[str]) -> Path:
    """The sources of `case` at size `n` in `folder` (created): one file per edition (a wiki page where
    the case names no format), the manifest, and corrections.toml where the case has corrections."""
    folder = Path(folder)
    folder.mkdir(parents=True)
    made = CASES[case](n)
    sources = made if isinstance(made, Sources) else Sources(made)
    entries = [f'language = "{sources.language}"\n'] if sources.language else []
    for edition, text in sources.texts.items():
        name = f"{case}-{edition}.txt"
        (folder / name).write_text(text, encoding="utf-8")
        forced = f'format = "{sources.format}"\n' if sources.format else ""
        entries.append(f'[[source]]\nfile = "{name}"\nedition = "{edition}"\n{forced}')
    (folder / manifest.MANIFEST).write_text("\n".join(entries), encoding="utf-8")
    if sources.corrections:
        (folder / "corrections.toml").write_text(sources.corrections, encoding="utf-8")
    return folder


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pipeline.bench.hostile", description=__doc__.split("\n")[0])
    parser.add_argument("--case", choices=sorted(CASES), required=True)
    parser.add_argument("--size", type=int, required=True)
    parser.add_argument("--out", required=True, help="the sources folder to write (must not exist)")
    args = parser.parse_args(argv)
    write(args.case, args.size, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
