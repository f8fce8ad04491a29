"""A scaling book generator: source files in the three source formats, and a manifest.

    python -m pipeline.bench.generate --articles 93 --editions 2 --out /tmp/book [--seed 1]

Writes into DIR (which must not hold other files): one source file per wiki page,
template or printed page, named like the received sources (NNN_<hash>.txt), and
sources/sources.toml. The same seed gives the same bytes.

The law text is made up from the vocabulary of the real Spelregels, in the
structure the real book has, so the real readers take it apart the way they take
the real sources apart:
  - each edition is a book of N articles: a title, sometimes a lead-in paragraph,
    sections A, B, … with a heading and text, some with subsections 1, 2, … and
    some subsections with items a, b, …;
  - text cites other articles ("zie artikel 12B"), its own article's sections
    ("maar zie B", "C2 hierboven") and items ("(b)"); about one citation in ten
    points at a node that does not exist (a dangling reference);
  - notes: inline "(Noot: …)" and the malformed "Noot: (…)" in wiki pages,
    numbered footnotes "1)" in templates, bare digits in printed pages;
  - a later edition rewords some paragraphs and adds or drops some sections;
  - wiki pages show two to four articles, sometimes one shown on an earlier page
    again (the same words: a merge, not a conflict), and sometimes end with a
    personal remark (commentary); templates hold one article; a printed page one
    or two articles, broken into short lines with line-end hyphens, its footnotes
    at the page bottom (the reader reports its last article as cut off).

generate() returns the counts the corpus must show, for tests and the benchmark.
"""
import argparse
import hashlib
import os
import random
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..core import lang
from ..reading import manifest
from ..reading.book.words import book_words
from ..reading.formats.common import LETTERED, NUMBERED

SUBJECTS = ["de leider", "de blinde", "een tegenspeler", "de partner van de overtreder", "de overtreder",
            "de wedstrijdleider", "een speler", "de niet-overtredende partij", "de overtredende partij",
            "de speler die moet uitkomen", "zijn rechtertegenstander", "de vermoedelijke leider"]
VERBS = ["moet passen wanneer het de eerstvolgende maal zijn beurt is om te bieden",
         "mag de voorgespeelde kaart accepteren", "neemt de gespeelde kaart zonder verdere rechtzetting terug",
         "kan een arbitrale score toekennen", "moet de strafkaart open op tafel laten liggen",
         "mag uitleg vragen over het biedverloop", "behoudt het recht om een herhaling van het bieden te vragen",
         "legt de hand open voor zich op tafel", "mag niet voorspelen voordat de leider gekozen heeft",
         "speelt de hoogste kaart die hij in de voorgespeelde kleur bezit",
         "wordt onderworpen aan de beperkingen van dit artikel", "beslist welke kaart moet worden gespeeld",
         "mag een niet bedoelde bieding vervangen door zijn voorgenomen bieding",
         "moet de onregelmatigheid onmiddellijk melden", "verbeurt het recht op een rechtzetting"]
CONDITIONS = ["als het voorspelen niet geaccepteerd wordt", "zodra dit reglementair mogelijk is",
              "wanneer het te laat is voor herstel", "nadat de uitkomst is opengelegd",
              "tot het einde van de biedperiode", "als de overtreder leider of blinde wordt",
              "voordat zijn partner een kaart heeft gespeeld", "tenzij de wedstrijdleider anders bepaalt",
              "gedurende de gehele speelperiode", "ongeacht welke partij de handeling heeft verricht",
              "als de informatie ongeoorloofd is verkregen", "bij een opengelegde uitkomst uit de verkeerde hand"]
HEADING_WORDS = ["Voortijdig voorspelen", "Grote strafkaart", "Kleine strafkaart", "Gedekte uitkomst",
                 "Herhaling van het biedverloop", "Onvoldoende bod", "Verzaking", "Gelijktijdig spelen",
                 "Ongeoorloofde informatie", "Uitleg van een bieding", "Behandeling van de strafkaart",
                 "Rechtzetting na een onregelmatigheid", "Getoonde kaart tijdens het bieden", "Verkeerde uitleg",
                 "Claims en concessies", "Het begin van het spelen", "De hand van de blinde",
                 "Wijziging van een bieding", "Te veel of te weinig kaarten", "Opgenomen kaart"]
HEADING_TAILS = ["", " door de leider", " door een tegenspeler", " tijdens het bieden", " na de uitkomst",
                 " in de dertiende slag", " uit de verkeerde hand"]
NOTE_TEXTS = ["Het Bondsbestuur mag voorschrijven dat uitkomsten gedaan worden met de beeldzijde naar boven.",
              "Zoals door een gebaar of een hoofdknik.",
              "De leider mag uitleg vragen als hij speelt vanuit de blinde of vanuit zijn eigen hand.",
              "Een voor de beurt voorgespeelde kaart in de dertiende slag moet teruggenomen worden.",
              "De eerste keer dat de leider aan de beurt is om te spelen vanuit de blinde.",
              "Deze bepaling geldt niet voor parenwedstrijden met screens.",
              "Bij viertallenwedstrijden beslist de organisator over het gebruik van screens.",
              "Onder spelen wordt hier ook het noemen van een kaart verstaan.",
              "Als partner geldt ook de speler die tijdelijk de plaats van de partner inneemt.",
              "Wat na de laatste slag gebeurt, valt onder de regels voor het afrekenen.",
              "Tijdens de biedperiode heeft alleen de wedstrijdleider het recht op uitleg te wijzen.",
              "Voor bekerwedstrijden kan de bond een eigen regeling vaststellen.",
              "Niet van toepassing wanneer de overtreder de kaart al heeft teruggenomen.",
              "Spelers die een fout opmerken, roepen de wedstrijdleider direct aan tafel.",
              "Met de tegenpartij wordt hier de partij bedoeld die niet aan de beurt was.",
              "Indien beide partijen in overtreding zijn, beslist de wedstrijdleider naar billijkheid.",
              "Gedurende het spel blijven de kaarten van de blinde open op tafel liggen.",
              "Een arbitrale score wordt in de uitslag als zodanig aangegeven.",
              "Kaarten die op de grond vallen, gelden niet als getoond.",
              "Hierover kan de commissie van beroep een afwijkend oordeel geven."]
# A printed page holds up to about fifteen footnotes; the text of each differs from the NOTE_WINDOW notes
# before it, so no page prints a footnote twice (two footnotes of the same text under one page, each a
# number alone above the same line, are what a running head beside its page number looks like).
NOTE_WINDOW = 16
AUTHORS = ["Peter", "Anneke", "Jan de Vries", "Marieke"]
REWORDINGS = [("moet", "dient"), ("wedstrijdleider", "arbiter"), ("kaart", "speelkaart"),
              ("mag", "kan"), ("partner", "maat")]


@dataclass
class Note:
    text: str


@dataclass
class Paragraph:
    """Sentences as a list of pieces: words (str) and Notes after the word before them."""
    pieces: "list[str | Note]"

    def text(self, note: Callable[[Note], str]) -> str:
        """The paragraph as one line, each Note written by `note(Note) -> str` (glued to its word)."""
        out = ""
        for piece in self.pieces:
            out += note(piece) if isinstance(piece, Note) else (" " if out else "") + piece
        return out

    @property
    def notes(self) -> list[Note]:
        return [p for p in self.pieces if isinstance(p, Note)]


@dataclass
class Node:
    num: str
    heading: str | None = None
    paragraphs: list[Paragraph] = field(default_factory=list)
    children: "list[Node]" = field(default_factory=list)


@dataclass
class Article:
    num: int
    title: str
    lead: Paragraph | None
    sections: list[Node]


@dataclass
class SourceFile:
    edition: str
    format: str
    origin: str
    text: str
    articles: list[Article]  # the articles it shows for the first time


class Writer:
    """Makes up an edition's articles; one Random drives every choice."""

    def __init__(self, rnd: random.Random, articles: int) -> None:
        self.rnd = rnd
        self.n_articles = articles
        # article number -> [(section letter, [subsection numbers with item counts])]
        self.shape: dict[int, list[tuple[str, list[int]]]] = {}
        self.recent_notes: list[str] = []  # the texts of the last NOTE_WINDOW notes, none of them chosen again

    def book(self) -> list[Article]:
        for num in range(1, self.n_articles + 1):
            sections: list[tuple[str, list[int]]] = []
            for s in range(self.rnd.choice([1, 2, 3, 3, 4, 5, 6])):
                subs: list[int] = []
                if self.rnd.random() < 0.4:
                    subs = [self.rnd.choice([0, 0, 0, 2, 3]) for _ in range(self.rnd.choice([2, 3, 4]))]
                sections.append((chr(ord("A") + s), subs))
            self.shape[num] = sections
        return [self.article(num) for num in range(1, self.n_articles + 1)]

    def article(self, num: int) -> Article:
        rnd = self.rnd
        title = rnd.choice(HEADING_WORDS) + rnd.choice(HEADING_TAILS)
        lead = self.paragraph(num, None, rnd.choice([1, 2])) if rnd.random() < 0.3 else None
        sections: list[Node] = []
        for letter, subs in self.shape[num]:
            sec = Node(letter, heading=rnd.choice(HEADING_WORDS) + rnd.choice(HEADING_TAILS))
            sec.paragraphs = [self.paragraph(num, letter, rnd.choice([1, 2, 3]))]
            for k, items in enumerate(subs, 1):
                sub = Node(str(k), paragraphs=[self.paragraph(num, letter, rnd.choice([1, 2]))])
                sub.children = [Node(chr(ord("a") + i), paragraphs=[self.paragraph(num, letter, 1)])
                                for i in range(items)]
                sec.children.append(sub)
            sections.append(sec)
        return Article(num, title, lead, sections)

    def paragraph(self, article: int, section: str | None, sentences: int) -> Paragraph:
        pieces: list[str | Note] = []
        for _ in range(sentences):
            words = f"{self.rnd.choice(SUBJECTS)} {self.rnd.choice(VERBS)}".split()
            if self.rnd.random() < 0.5:
                words += self.rnd.choice(CONDITIONS).split()
            if self.rnd.random() < 0.45:
                words += self.reference(article, section).split()
            words[0] = words[0].capitalize()
            words[-1] += "."
            pieces += self._with_note(words) if self.rnd.random() < 0.12 else words
        return Paragraph(pieces)

    def _with_note(self, words: list[str]) -> Sequence[str | Note]:
        """A note after a word outside parentheses and before a plain word, as the real notes stand (a
        footnote marker inside parentheses is not one, and a printed marker line before a number would
        make the next line look like a list number)."""
        depth = 0
        places: list[int] = []
        for at in range(1, len(words) - 1):
            depth += words[at - 1].count("(") - words[at - 1].count(")")
            if depth == 0 and words[at].isalpha() and words[at].islower():
                places.append(at)
        if not places:
            return words
        at = self.rnd.choice(places)
        text = self.rnd.choice([t for t in NOTE_TEXTS if t not in self.recent_notes])
        self.recent_notes = (self.recent_notes + [text])[-NOTE_WINDOW:]
        return words[:at] + [Note(text)] + words[at:]

    def reference(self, article: int, section: str | None) -> str:
        """A citation: another article's node, this article's own sections, or (one in ten) nothing real."""
        rnd = self.rnd
        if rnd.random() < 0.1:
            return rnd.choice([f"(zie artikel {self.n_articles + rnd.randint(1, 40)})",
                               f"(zie artikel {rnd.randint(1, self.n_articles)}Q)"])
        if section is not None and rnd.random() < 0.25:
            letters = [s for s, _ in self.shape[article]]
            return rnd.choice([f"(maar zie {rnd.choice(letters)})", f"(zie {rnd.choice(letters)} hieronder)"])
        target = rnd.randint(1, self.n_articles)
        cite = str(target)
        if self.shape[target] and rnd.random() < 0.7:
            letter, subs = rnd.choice(self.shape[target])
            cite += letter
            if subs and rnd.random() < 0.5:
                cite += str(rnd.randint(1, len(subs)))
        return rnd.choice([f"(zie artikel {cite})", f"volgens artikel {cite}", f"(zie de artikelen {cite} en {target})"])


def revise(rnd: random.Random, book: list[Article]) -> list[Article]:
    """A later edition: the same articles, some paragraphs reworded, some sections added or dropped."""
    revised = []
    for article in book:
        sections: list[Node] = []
        for sec in article.sections:
            if len(article.sections) > 1 and sec is article.sections[-1] and rnd.random() < 0.05:
                continue  # the last section dropped
            sections.append(Node(sec.num, sec.heading, [_reword(rnd, p) for p in sec.paragraphs],
                                 [Node(c.num, c.heading, [_reword(rnd, p) for p in c.paragraphs],
                                       [Node(i.num, None, [_reword(rnd, p) for p in i.paragraphs])
                                        for i in c.children]) for c in sec.children]))
        if sections and len(sections) < 8 and rnd.random() < 0.05:
            letter = chr(ord(sections[-1].num) + 1)
            # The words of the first paragraph without its notes: its footnote on the same printed page
            # twice would make the page look like one with running heads.
            words: list[str | Note] = [p for p in sections[0].paragraphs[0].pieces if not isinstance(p, Note)]
            sections.append(Node(letter, "Nieuwe bepaling", [Paragraph(words)]))
        revised.append(Article(article.num, article.title, article.lead, sections))
    return revised


def _reword(rnd: random.Random, paragraph: Paragraph) -> Paragraph:
    if rnd.random() >= 0.15:
        return paragraph
    old, new = rnd.choice(REWORDINGS)
    return Paragraph([new if p == old else p for p in paragraph.pieces])


# -- the three source formats --------------------------------------------------------------------

def wiki_page(page_subject: int, articles: list[Article], commentary: tuple[str, str] | None = None) -> str:
    """A wiki page export: page title, "Artikel N", list numbers for letters, inline notes."""
    def note(n: Note) -> str:
        # Some notes were exported in the malformed form (two of the twenty texts).
        return f" Noot: ({n.text})" if hash_choice(n.text, 6) else f" (Noot: {n.text})"
    out = [f"ARTIKEL {page_subject}", ""]
    for article in articles:
        out += [f"Artikel\u00a0{article.num}", "", article.title, ""]
        if article.lead:
            out += [article.lead.text(note), ""]
        for k, sec in enumerate(article.sections, 1):
            out.append(f"{k}. {sec.heading}")
            out += [p.text(note) for p in sec.paragraphs]
            out.append("")
            for sub in sec.children:
                out.append(f"   {sub.num}. " + " ".join(p.text(note) for p in sub.paragraphs))
                for i, item in enumerate(sub.children, 1):
                    out.append(f"      {i}. " + " ".join(p.text(note) for p in item.paragraphs))
            if sec.children:
                out.append("")
    if commentary:
        author, text = commentary
        out += [f"* Deze opmerking is geschreven op persoonlijke titel en valt onder verantwoording van {author}.",
                "", text]
    return "\n".join(out)


def hash_choice(text: str, n: int) -> bool:
    """A stable one-in-n choice from a text (the same note is malformed in every page that shows it)."""
    return int(hashlib.sha256(text.encode()).hexdigest(), 16) % n == 0


def template(edition: str, article: Article) -> str:
    """A MediaWiki template: "ARTIKEL N title", "A. heading", numbered footnotes after each paragraph."""
    out = [f"Sjabloon:{edition}:{article.num}", f"ARTIKEL {article.num} {article.title}"]
    counter = [0]

    def para(prefix: str, paragraph: Paragraph) -> None:
        bodies: list[str] = []

        def note(n: Note) -> str:
            counter[0] += 1
            bodies.append(f"{counter[0]}) {n.text}")
            return f" {counter[0]})"
        out.append(prefix + paragraph.text(note))
        out.extend(bodies)

    if article.lead:
        para("", article.lead)
    for sec in article.sections:
        out.append(f"{sec.num}. {sec.heading}")
        for p in sec.paragraphs:
            para("", p)
        for sub in sec.children:
            # Templates write items as part of their subsection's paragraph: they have no indentation.
            joined = Paragraph([w for p in sub.paragraphs + [q for i in sub.children for q in i.paragraphs]
                                for w in p.pieces])
            para(f"{sub.num}. ", joined)
    return "\n".join(out) + "\n"


WIDTH = 62
# The generator writes Dutch books (the vocabulary of the Spelregels, Dutch note and citation words): its
# shapes and hyphen prefixes are the Dutch profile's.
DUTCH = lang.profile("nl")
SHAPES = (LETTERED, NUMBERED, book_words(DUTCH).capitals, re.compile(r"^\d{1,4}$"))


def printed_page(page: int, edition: str, articles: list[Article]) -> str:
    """A text extraction of one printed page: running header, page number, short hyphenated lines,
    footnote digits in the text and the footnotes at the page bottom."""
    out = [f"Spelregels voor Wedstrijdbridge {edition}", "", str(page)]
    footnotes: list[tuple[int, str]] = []
    for article in articles:
        out.append(f"ARTIKEL {article.num}")
        words = article.title.split()
        if len(words) > 3:  # a long title breaks after its third word; the rest starts in lower case
            out += [" ".join(words[:3]), " ".join(words[3:])]
        else:
            out.append(article.title)
        if article.lead:
            out += _print_paragraph(article.lead, footnotes)
        for sec in article.sections:
            out.append(f"{sec.num}. {sec.heading}")
            for p in sec.paragraphs:
                out += _print_paragraph(p, footnotes)
            for sub in sec.children:
                joined = Paragraph([w for p in sub.paragraphs + [q for i in sub.children for q in i.paragraphs]
                                    for w in p.pieces])
                out += _print_paragraph(joined, footnotes, prefix=f"{sub.num}. ")
    for number, text in footnotes:
        out.append(str(number))
        out += _wrap(text.split(), 0)
    return "\n".join(out) + "\n"


def _print_paragraph(paragraph: Paragraph, footnotes: list[tuple[int, str]], prefix: str = "") -> list[str]:
    """Short lines; a note's marker is its number alone on a line after the word it stands at."""
    lines: list[str] = []
    words = [prefix.strip()] if prefix else []
    for piece in paragraph.pieces:
        if isinstance(piece, Note):
            lines += _wrap(words, len(lines))
            footnotes.append((len(footnotes) + 1, piece.text))
            lines.append(str(len(footnotes)))
            words = []
        else:
            words.append(piece)
    return lines + _wrap(words, len(lines))


def _wrap(words: list[str], salt: int) -> list[str]:
    """Break words into lines of about WIDTH characters, hyphenating a long word at a line end where
    the reader will join it again; no line may look like a heading, list number or page number."""
    lines: list[str] = []
    line = ""
    for word in words:
        if line and len(line) + 1 + len(word) > WIDTH:
            cut = _hyphen_point(word, WIDTH - len(line) - 2, salt + len(lines))
            if cut:
                lines.append(f"{line} {word[:cut]}-")
                line = word[cut:]
                continue
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    # A line starting "12. …" or "B. …", or a lone number, would be read as structure: move a word up.
    for k in range(1, len(lines)):
        while any(shape.match(lines[k].strip()) for shape in SHAPES) and " " in lines[k]:
            head, _, rest = lines[k].partition(" ")
            lines[k - 1] = f"{lines[k - 1]} {head}"  # (a hyphenated remainder starts in lower case: never here)
            lines[k] = rest
    return lines


def _hyphen_point(word: str, room: int, salt: int) -> int | None:
    """Where to hyphenate `word` so that the reader joins it back (or None): a plain lower-case word,
    not after a hyphen prefix, never before a conjunction; every other chance only, for variety."""
    if salt % 2 or not re.fullmatch(r"[a-zë]{8,}", word) or room < 4:
        return None
    cut = min(room, len(word) - 3, max(3, len(word) // 2))
    if cut < 3 or word[:cut] in DUTCH.rules.HYPHEN_PREFIXES:
        return None
    return cut


# -- the book --------------------------------------------------------------------------------------

def sources_for(rnd: random.Random, writer: Writer, edition: str, book: list[Article],
                start_page: int) -> list[SourceFile]:
    """An edition's articles spread over wiki pages, templates and printed pages, in a rotation.
    Returns SourceFiles, each with the articles it shows."""
    files: list[SourceFile] = []
    k, page = 0, start_page
    on_wiki: list[Article] = []
    while k < len(book):
        kind = ("wiki", "wiki", "template", "print")[len(files) % 4]
        if kind == "wiki":
            take = book[k:k + rnd.choice([2, 3, 4])]
            # Only a wiki page repeats a wiki page word for word (other formats write items differently).
            again = [rnd.choice(on_wiki)] if on_wiki and rnd.random() < 0.2 else []
            commentary: tuple[str, str] | None = None
            if rnd.random() < 0.15:
                commentary = (rnd.choice(AUTHORS), writer.paragraph(take[0].num, None, 3).text(lambda n: ""))
            subject = take[0].num
            text = wiki_page(subject, take + again, commentary)
            origin = (f"Wiki page export 'ARTIKEL {subject}': shows articles "
                      f"{', '.join(str(a.num) for a in take + again)}" + (", then a personal remark" if commentary else ""))
            on_wiki += take
        elif kind == "template":
            take = book[k:k + 1]
            text = template(edition, take[0])
            origin = f"MediaWiki template 'Sjabloon:{edition}:{take[0].num}'"
        else:
            take = book[k:k + rnd.choice([1, 2])]
            text = printed_page(page, edition, take)
            origin = f"Text extraction of page {page} of the printed {edition} book: articles " + \
                     ", ".join(str(a.num) for a in take)
            page += 1
        files.append(SourceFile(edition, kind, origin, text, take))
        k += len(take)
    return files


def generate(out: str | os.PathLike[str], articles: int = 93, editions: int = 2,
             seed: int = 1) -> dict[str, dict[str, int]]:
    """Write a book of `articles` articles in `editions` editions into `out`, and its manifest.

    Returns the counts a correct build must show per edition: articles, sections, subsections,
    items, notes (each note once, however many sources show it), commentary, and the citations
    written in the text (dangling ones counted apart).
    """
    if not 1 <= editions <= len(manifest.EDITIONS):
        raise ValueError(f"the manifest knows {len(manifest.EDITIONS)} editions ({', '.join(manifest.EDITIONS)})")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    stray = [p.name for p in out.iterdir() if p.name != manifest.MANIFEST and not re.match(r"\d{3,}_", p.name)]
    if stray:
        raise ValueError(f"{out} holds other files ({', '.join(stray[:3])}); give an empty folder")
    for old in out.iterdir():
        old.unlink()
    rnd = random.Random(seed)
    writer = Writer(rnd, articles)
    book = writer.book()
    files: list[SourceFile] = []
    counts: dict[str, dict[str, int]] = {}
    for edition in manifest.EDITIONS[len(manifest.EDITIONS) - editions:]:
        files += sources_for(rnd, writer, edition, book, start_page=10)
        counts[edition] = _counts(book, files, edition)
        book = revise(rnd, book)

    entries = ["# A generated book: made-up text in the structure and source formats of the Spelregels.", ""]
    for n, source in enumerate(files):
        data = source.text.encode("utf-8")
        name = f"{n:03d}_{hashlib.sha256(data).hexdigest()[:16]}.txt"
        (out / name).write_bytes(data)
        entries += ["[[source]]", f'file = "{name}"', f'edition = "{source.edition}"',
                    f"origin = {_toml_string(source.origin)}", ""]
    (out / manifest.MANIFEST).write_text("\n".join(entries), encoding="utf-8")
    return counts


CITATION = re.compile(r"\bartikel (\d+[A-Z]?\d*)|\bartikelen (\d+[A-Z]?\d*) en (\d+)")
RELATIVE = re.compile(r"\bzie [A-Z]\b")


def _counts(book: list[Article], files: list[SourceFile], edition: str) -> dict[str, int]:
    """What the corpus of `edition` must hold. Items exist only where a wiki page shows them (templates
    and printed pages write an item as part of its subsection's paragraph)."""
    files = [f for f in files if f.edition == edition]
    wiki = {a.num for f in files if f.format == "wiki" for a in f.articles}
    paragraphs: list[Paragraph] = []
    for a in book:
        paragraphs += [a.lead] if a.lead else []
        for s in a.sections:
            paragraphs += s.paragraphs
            for c in s.children:
                paragraphs += c.paragraphs + [p for i in c.children for p in i.paragraphs]
    words = " ".join(w for p in paragraphs for w in p.pieces if isinstance(w, str))
    cites = [c for m in CITATION.finditer(words) for c in m.groups() if c]
    dangling = [c for c in cites if _article_number(c) > len(book) or c.endswith("Q")]
    return {
        "sources": len(files),
        "articles": len(book),
        "sections": sum(len(a.sections) for a in book),
        "subsections": sum(len(s.children) for a in book for s in a.sections),
        "items": sum(len(c.children) for a in book if a.num in wiki for s in a.sections for c in s.children),
        "notes": sum(len(p.notes) for p in paragraphs),
        "commentary": sum(1 for f in files if "persoonlijke titel" in f.text),
        "citations": len(cites),
        "dangling": len(dangling),
        "relative": len(RELATIVE.findall(words)),
    }


def _article_number(cite: str) -> int:
    """The article's number a citation starts with: '53A2' -> 53."""
    found = re.match(r"\d+", cite)
    assert found is not None  # (CITATION's citations start with their article's number)
    return int(found.group())


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pipeline.bench.generate",
                                     description="Write a generated book (sources and manifest) for benchmarks.")
    parser.add_argument("--articles", type=int, default=93)
    parser.add_argument("--editions", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", required=True, help="an empty folder (or one written by this command)")
    args = parser.parse_args(argv)
    try:
        counts = generate(args.out, args.articles, args.editions, args.seed)
    except ValueError as e:
        print(f"generate: {e}", file=sys.stderr)
        return 2
    for edition, c in counts.items():
        print(f"{edition}: " + ", ".join(f"{v} {k}" for k, v in c.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
