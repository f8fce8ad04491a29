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
    from . import en, nl
    return {"en": en.PROFILE, "nl": nl.PROFILE}


DEFAULT = "nl"


def profile(code=DEFAULT, where=None, line=None):
    """The profile of language `code`; a LawbookError naming `where` (the manifest) and its `line` for an
    unknown one."""
    profiles = _profiles()
    if code not in profiles:
        raise LawbookError(f"unknown language {code!r}", file=where, line=line,
                           fix=f"set language to one of {', '.join(sorted(profiles))} (or leave it out for "
                               f"{DEFAULT})")
    return profiles[code]


def codes():
    return sorted(_profiles())


def compiled(build):
    """A decorator: `build(rules)` makes a module's patterns from a profile's rules; the decorated
    function takes a profile (None for the default one) and builds them once per profile.

    Keyed by the language code, and built again when a profile of that code brings other rules (a
    test's made-up profile), so a profile is never read with another's patterns."""
    made = {}

    def patterns(of=None):
        of = of or profile()
        hit = made.get(of.code)
        if hit is None or hit[0] is not of.rules:
            hit = made[of.code] = (of.rules, build(of.rules))
        return hit[1]

    patterns.__doc__ = build.__doc__
    return patterns
