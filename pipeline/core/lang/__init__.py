"""Language profiles: every word and pattern that belongs to one language, in one place per language.

A profile is a folder here (nl/ for Dutch): rules.py holds how the language writes the law
(citation keywords, relative words, note markers, repair word lists, gap texts), words.py the
words readers see in the outputs (HTML, PDF, Markdown, diff), keyed by their English. The
manifest's top-level `language = "nl"` (the default) picks the profile of a book.

Adding a language is one new folder beside nl/ and one line in _profiles().
"""
from ..errors import LawbookError
from .profile import Profile  # noqa: F401 (the type, for the modules that use profiles)


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
