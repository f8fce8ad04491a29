"""Language profiles: every word and pattern that belongs to one language, in one place per language.

A profile is a folder here (nl/ for Dutch): rules.py holds how the language writes the law
(citation keywords, relative words, note markers, repair word lists, gap texts), words.py the
words readers see in the outputs (HTML, PDF, Markdown, diff), keyed by their English. The
manifest's top-level `language = "nl"` (the default) picks the profile of a book.

Adding a language is one new folder beside nl/ and one line in PROFILES.
"""
from dataclasses import dataclass

from ..errors import LawbookError


@dataclass(frozen=True)
class Profile:
    code: str  # ISO 639-1: "nl"; the HTML lang attribute and the search stemming language
    region: str  # "NL": with the code, the PDF's /Lang (nl-NL) and the hyphenation patterns
    name: str  # the language's own name: "Nederlands"
    rules: object  # how the language writes the law: see nl/rules.py
    words: dict  # reader-facing words: English -> this language (see nl/words.py)

    @property
    def tag(self):
        """The BCP 47 tag: 'nl-NL'."""
        return f"{self.code}-{self.region}"

    def word(self, english):
        """The reader-facing word or phrase for `english`; a missing one is a fault that tests catch."""
        try:
            return self.words[english]
        except KeyError:
            raise KeyError(f"the {self.code} profile has no words for {english!r} (add them to "
                           f"pipeline/core/lang/{self.code}/words.py)") from None


def _profiles():
    from . import nl
    return {"nl": nl.PROFILE}


DEFAULT = "nl"


def profile(code=DEFAULT, where=None):
    """The profile of language `code`; a LawbookError naming `where` (the manifest) for an unknown one."""
    profiles = _profiles()
    if code not in profiles:
        raise LawbookError(f"unknown language {code!r}", file=where,
                           fix=f"set language to one of {', '.join(sorted(profiles))} (or leave it out for "
                               f"{DEFAULT})")
    return profiles[code]


def codes():
    return sorted(_profiles())
