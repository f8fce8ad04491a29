"""What the outputs say: the reader's words from the book's language profile, and which references
stay plain words.

Reads: a language profile (pipeline/core/lang; its words.py maps English to the language).
Writes nothing but the templates' compiled code (template_cache). Every word is a %-format string (`"Article %(num)s"`), in Python (say) and in the
templates (jinja2's i18n extension, `{{ _("Article %(num)s", num=…) }}`) alike, so a phrase keeps
its own word order in every language and a literal % is written %%.
"""
import functools
import hashlib
import os
import stat
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import jinja2

from ..core import lang

if TYPE_CHECKING:
    from .job import Job

T = TypeVar("T")

# Reference statuses that mean the words cite something the corpus does not hold: printed unlinked.
UNRESOLVED = ("dangling", "known-missing")
# The book's title, as the profile words it.
TITLE = "Laws of Duplicate Bridge"


def profile_of(job: "Job") -> lang.Profile:
    """The profile an output stage writes in: the book's (job.profile, the manifest's language)."""
    return job.profile


def say(profile: lang.Profile, english: str, **values: object) -> str:
    """The profile's words for `english`, with `values` put in: say(nl, "Article %(num)s", num="53")."""
    return profile.word(english) % values


def title(profile: lang.Profile) -> str:
    return profile.word(TITLE)


@dataclass(frozen=True)
class FileNames:
    """The names of the output files a reader sees, in the book's language (its profile's rules): the
    site's search page, editor's page, an edition's graph page and the citation table, and the book's
    PDF, its Typst source and the folder of its sources in parts, below pdf/."""
    search: str
    editor: str
    graph: str
    citations: str
    book: str  # with {edition}: "spelregels-{edition}"

    def pdf(self, edition: str) -> str:
        return f"pdf/{self.book.format(edition=edition)}.pdf"

    def typ(self, edition: str) -> str:
        return f"pdf/{self.book.format(edition=edition)}.typ"

    def parts(self, edition: str) -> str:
        return f"pdf/{self.book.format(edition=edition)}.parts"


def file_names(profile: lang.Profile) -> FileNames:
    """The output file names of a book in `profile`'s language (zoeken.html in Dutch, search.html in English)."""
    rules = profile.rules
    return FileNames(search=f"{rules.SEARCH_PAGE}.html", editor=f"{rules.EDITOR_PAGE}.html",
                     graph=f"{rules.GRAPH_PAGE}.html", citations=f"{rules.CITATIONS_SCRIPT}.js",
                     book=rules.BOOK_FILE)


def environment(module_file: str, folders: "list[Path]", profile: lang.Profile, *, cache_in: Path | None = None,
                newstyle: bool = True, **options: object) -> jinja2.Environment:
    """The one way lawbook makes a jinja2 environment (the site, the PDF's Typst, the comparison): over
    `folders` (looked up in that order), the bytecode cache in `cache_in` (default: the first folder;
    template_cache, keyed by `module_file`, the module that makes it), autoescaping (law text is data, never markup), every undefined name an error, templates
    compiled once per process (they are part of the code version: a change means a new process), and
    the profile's words as _() (install). `options`: what differs between the outputs (whitespace
    control, a finalize that quotes every value as a Typst string)."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader([str(f) for f in folders]), autoescape=True,
                             undefined=jinja2.StrictUndefined, auto_reload=False, cache_size=-1,
                             bytecode_cache=template_cache(module_file, cache_in or folders[0]), **options)  # type: ignore[arg-type]
    return install(env, profile, newstyle=newstyle)


def install(env: jinja2.Environment, profile: lang.Profile, newstyle: bool = True) -> jinja2.Environment:
    """Give the templates of `env` the profile's words as _() (and gettext/ngettext).
    newstyle: _() formats its keyword arguments in and, under autoescape, trusts the words as
    markup and escapes the values (HTML); without it _() returns the plain words (Typst, where the
    environment escapes every printed value itself)."""
    env.add_extension("jinja2.ext.i18n")
    env.install_gettext_callables(  # type: ignore[attr-defined]  # (the i18n extension adds it at run time)
        gettext=profile.word,
        ngettext=lambda singular, plural, n: profile.word(singular if n == 1 else plural),
        newstyle=newstyle)
    env.globals.update(lang=profile.code, region=profile.region, title=title(profile))
    return env


def per_profile(make: Callable[[lang.Profile], T]) -> Callable[[lang.Profile], T]:
    """`make(profile)` made once per profile (a jinja2 environment compiles each template once); the
    profile is always named, so no book gets another language's words. Profiles hold a dict, so they
    are told apart by identity."""
    made: dict[int, tuple[lang.Profile, T]] = {}

    @functools.wraps(make)
    def get(profile: lang.Profile) -> T:
        if id(profile) not in made:
            made[id(profile)] = (profile, make(profile))  # the profile kept, so its id stays its own
        return made[id(profile)][1]
    return get


class _TemplateCache(jinja2.FileSystemBytecodeCache):
    """jinja2's compiled templates kept between processes, like Python's own __pycache__: a build
    otherwise compiles its 16 templates anew (about 0.3 s). A cache that cannot be written is not
    used; nothing else changes."""

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().dump_bytecode(bucket)
        except OSError:
            pass


def template_cache(module_file: str | Path, folder: str | Path) -> jinja2.FileSystemBytecodeCache | None:
    """A bytecode cache for the templates in `folder` made by the environment defined in `module_file`,
    in folder/__pycache__/jinja2-<digest>: the digest covers that module and this one (the options and
    extensions the templates are compiled with) and the jinja2 and Python versions, so code compiled
    under other settings is never used (jinja2 itself checks each template's source). None when that
    folder is not the user's own (owned by them, not writable by others) or cannot be made."""
    digest = hashlib.sha256(f"{jinja2.__version__} {sys.version}".encode())
    for path in (module_file, __file__):
        digest.update(Path(path).read_bytes())
    top = Path(folder) / "__pycache__"
    where = top / f"jinja2-{digest.hexdigest()[:16]}"
    try:
        where.mkdir(mode=0o755, parents=True, exist_ok=True)
        for path in (top, where):
            st = os.lstat(path)
            if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o022:
                return None
    except OSError:
        return None
    return _TemplateCache(str(where), "%s.cache")
